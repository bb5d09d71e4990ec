#!/bin/sh
# The GPU suites (tests/test_gpu, tests/test_gpu_complex, tests/test_gpu_odd) again with TILEBLAS_GPU_MEMORY below
# their problems' size (the large ones take 14 MB in single precision, 28 MB in double), so that every large call
# is computed tile by tile with operands streamed in and out (lib/gpu/pipeline.c), with staging copies on
# TILEBLAS_COPY_THREADS threads (1 where unset;
# tests/out-of-core-threads.sh runs it with 16, beside this one).  12 MiB: the smallest tiles of the double ones
# (256 rows, all of K) need more than 6.  SKIP (77) without a GPU, as the suite itself.
# The three suites run side by side (each alone takes minutes on a GPU host), their output shown one after the other;
# the status is the first suite's that is not 0.
set -u
threads=${TILEBLAS_COPY_THREADS:-1}
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
for suite in test_gpu test_gpu_complex test_gpu_odd; do
  (TILEBLAS_GPU_MEMORY=12M TILEBLAS_COPY_THREADS=$threads "${top_builddir:-.}/tests/$suite" >"$out/$suite" 2>&1
   echo $? >"$out/$suite.status") &
done
wait
status=0
for suite in test_gpu test_gpu_complex test_gpu_odd; do
  cat "$out/$suite"
  s=$(cat "$out/$suite.status")
  [ "$status" = 0 ] && status=$s
done
[ "$status" = 0 ] || exit "$status"
echo "PASS: the GPU suites within 12 MiB of device memory, $threads copy threads"
