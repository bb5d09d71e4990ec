#!/bin/sh
# The GPU suite again with TILEBLAS_GPU_MEMORY below its problems' size (its large ones take 14 MB in single
# precision, 28 MB in double), so that every large call is computed tile by tile with operands streamed in and out
# (lib/gpu/pipeline.c), and with staging copies on one and on many threads.  12 MiB: the smallest tiles of the double
# ones (256 rows, all of K) need more than 6.  SKIP (77) without a GPU, as the suite itself.
set -u
suite=${top_builddir:-.}/tests/test_gpu
for threads in 1 16; do
  TILEBLAS_GPU_MEMORY=12M TILEBLAS_COPY_THREADS=$threads "$suite"
  status=$?
  [ $status = 0 ] || exit $status
done
echo "PASS: the GPU suite within 12 MiB of device memory"
