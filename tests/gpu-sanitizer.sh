#!/bin/sh
# The kernels under compute-sanitizer: memcheck (out-of-bounds and misaligned accesses, errors of the CUDA calls)
# and racecheck (shared-memory hazards) over tileblas-bench runs of tc128, tc32, tf32 and blocked at shapes with
# partial tiles in every dimension, k not a multiple of the tiles' depth, k split into slices, C with a thin side
# (which blocked's thin tile, where built, computes transposed, with k split and not), and every transpose; and
# CGEMM's c4m-tc32 and c4m-blocked at the same shapes (real products tc32 mostly hands to blocked, which reads a
# transposed op(B) as pairs).  cuBLAS's kernels (the bench's yardstick, names holding "gemm") are left out: they are not ours.
# SKIP (77) without compute-sanitizer, without a GPU, or in a build without CUDA.
. "${top_srcdir:-.}/tests/preamble.sh"
bench=$builddir/tools/tileblas-bench
[ -x "$bench" ] || { echo "SKIP: tileblas-bench is not built (no CUDA)"; exit 77; }
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
[ -n "$sanitizer" ] || { echo "SKIP: no compute-sanitizer"; exit 77; }
set -- --no-cpu --type sc --kernels tc128,tc32,tf32,blocked,c4m-tc32,c4m-blocked --repeats 1 --shape 300x200x1000 --shape 257x129x72 \
  --shape 20x600x300 --shape 30x700x64 \
  --trans NN --trans NT --trans TN --trans TT
"$bench" "$@" >"$work/plain.txt" 2>&1
status=$?
[ $status = 77 ] && { cat "$work/plain.txt"; echo "SKIP: no usable GPU"; exit 77; }
[ $status = 0 ] || fail "tileblas-bench exited $status without the sanitizer" "$work/plain.txt"
for tool in memcheck racecheck; do
  timeout 300 "$sanitizer" --tool $tool --error-exitcode 99 --kernel-name-exclude kns=gemm "$bench" "$@" \
    >"$work/$tool.txt" 2>&1
  status=$?
  tail -n 5 "$work/$tool.txt"
  [ $status = 124 ] && fail "$tool ran past 300 s"
  [ $status = 0 ] || fail "$tool: exit $status" "$work/$tool.txt"
  grep -Eq '(ERROR|RACECHECK) SUMMARY: 0 (errors|hazards)' "$work/$tool.txt" || fail "$tool: no clean summary" "$work/$tool.txt"
  echo "PASS: $tool clean"
done
