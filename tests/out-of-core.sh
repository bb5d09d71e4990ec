#!/bin/sh
# The GPU suite again with TILEBLAS_GPU_MEMORY far below its problems' size, so that every large call is computed
# tile by tile with operands streamed in and out (lib/pipeline.c), and with staging copies on one and on many
# threads.  SKIP (77) without a GPU, as the suite itself.
set -u
suite=${top_builddir:-.}/tests/test_gpu
for threads in 1 16; do
  TILEBLAS_GPU_MEMORY=6M TILEBLAS_COPY_THREADS=$threads "$suite"
  status=$?
  [ $status = 0 ] || exit $status
done
echo "PASS: the GPU suite within 6 MiB of device memory"
