#!/bin/sh
# R, unmodified: float64 products of tests/r_check.R (`%*%`, crossprod, tcrossprod: dgemm_ of the system BLAS, and
# of one matrix: dsyrk_) with and without tileblas preloaded.  On the CPU path the results are byte for byte R's own
# and every product is counted as a dgemm_ call, every rank-k update as a dsyrk_ one; in auto mode (and, with a GPU, forced there) every product within the bound of
# doc/TESTING.md of R's own.  SKIP (77) without Rscript (Debian: apt-get install r-base-core).
set -u
[ -z "${ASAN_PRELOAD:-}" ] || { echo "SKIP: the sanitizer build (R under ASan)"; exit 77; }
. "${top_srcdir:-.}/tests/preamble.sh"
command -v Rscript >/dev/null 2>&1 || { echo "SKIP: no Rscript (apt-get install r-base-core)"; exit 77; }
check=$srcdir/tests/r_check.R
seed=${TILEBLAS_TEST_SEED:-$(date +%s)}
seed=$((seed % 2147483647))
echo "seed $seed (TILEBLAS_TEST_SEED=$seed replays it); $(Rscript -e 'cat(R.version.string)' 2>&1)"
unset TILEBLAS_MODE TILEBLAS_VERBOSE

Rscript "$check" "$seed" write "$work/plain.bin" >"$work/plain" 2>&1 || fail "R alone" "$work/plain"
products=$(sed -n 's/^products \([0-9]*\) syrk [0-9]* *$/\1/p' "$work/plain")
syrks=$(sed -n 's/^products [0-9]* syrk \([0-9]*\) *$/\1/p' "$work/plain")
[ "${products:-0}" -gt 0 ] || fail "R: no products" "$work/plain"

LD_PRELOAD=$lib TILEBLAS_SUMMARY=1 TILEBLAS_MODE=cpu Rscript "$check" "$seed" write "$work/cpu.bin" >"$work/cpu" \
  2>"$work/cpu.err" || fail "R under tileblas, CPU path" "$work/cpu" "$work/cpu.err"
cmp -s "$work/plain.bin" "$work/cpu.bin" || fail "R, CPU path: not the same results as R alone"
[ "$(gemm_calls d "$work/cpu.err")" = "$products 0" ] ||
  fail "R, CPU path: tileblas did not see the $products products as dgemm calls" "$work/cpu.err"
[ "$(routine_calls dsyrk "$work/cpu.err")" = "$syrks 0" ] ||
  fail "R, CPU path: tileblas did not see the $syrks rank-k updates as dsyrk calls" "$work/cpu.err"
echo "PASS: R, CPU path: $products products through tileblas's dgemm_, $syrks rank-k updates through dsyrk_, byte for" \
  "byte R's own results"

for mode in auto gpu; do
  LD_PRELOAD=$lib TILEBLAS_SUMMARY=1 TILEBLAS_MODE=$mode Rscript "$check" "$seed" write "$work/$mode.bin" \
    >"$work/$mode" 2>"$work/$mode.err" || fail "R under tileblas, $mode mode" "$work/$mode" "$work/$mode.err"
  set -- $(gemm_calls d "$work/$mode.err")
  [ "${1:-}" = "$products" ] || fail "R, $mode mode: $products products, tileblas saw ${1:-none}" "$work/$mode.err"
  if [ $mode = gpu ] && [ "${2:-0}" != "$products" ]; then
    grep -q 'no GPU is usable' "$work/$mode.err" && { echo "SKIP: R, GPU path (no usable GPU)"; continue; }
    fail "R, GPU path: ${2:-0} of $products products on the GPU" "$work/$mode.err"
  fi
  Rscript "$check" "$seed" check "$work/$mode.bin" >"$work/$mode.check" 2>&1 ||
    fail "R, $mode mode: results out of bound" "$work/$mode.check"
  echo "PASS: R, $mode mode: $products products, ${2:-0} of them on the GPU, $(cat "$work/$mode.check")"
done
