#!/bin/sh
# numpy, unmodified: float32 products of tests/numpy_check.py (C- and Fortran-ordered operands, transposed views,
# np.dot, a stack) through the system numpy's BLAS, with and without tileblas preloaded.  Every product within
# DESIGN.md's bound of a float64 one; on the CPU path the results are byte for byte those without tileblas; the
# summary counts exactly the products numpy handed to cblas_sgemm; with a GPU, all of them forced there.  SKIP (77)
# without a python3 that has numpy (Debian: apt-get install python3-numpy).
set -u
builddir=${top_builddir:-.}
srcdir=${top_srcdir:-.}
lib=$builddir/.libs/libtileblas.so
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $1"; shift; [ $# = 0 ] || cat "$@"; exit 1; }
py=
for p in /usr/bin/python3 python3; do
  if "$p" -c 'import numpy' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || { echo "SKIP: no python3 with numpy (apt-get install python3-numpy)"; exit 77; }
seed=${TILEBLAS_TEST_SEED:-$(date +%s)}
echo "seed $seed (TILEBLAS_TEST_SEED=$seed replays it); $py, numpy $("$py" -c 'import numpy; print(numpy.__version__)')"
check=$srcdir/tests/numpy_check.py
unset TILEBLAS_MODE TILEBLAS_VERBOSE

"$py" "$check" "$seed" >"$work/plain" 2>&1 || fail "numpy alone" "$work/plain"
products=$(sed -n 's/^products \([0-9]*\) .*/\1/p' "$work/plain")
[ "${products:-0}" -gt 0 ] || fail "no products counted" "$work/plain"
calls() { sed -n 's/^tileblas:  total: \([0-9]*\) calls, \([0-9]*\) on the GPU.*/\1 \2/p' "$1"; }

LD_PRELOAD=$lib TILEBLAS_SUMMARY=1 TILEBLAS_MODE=cpu "$py" "$check" "$seed" >"$work/cpu" 2>"$work/cpu.err" ||
  fail "numpy under tileblas, CPU path" "$work/cpu" "$work/cpu.err"
cmp -s "$work/plain" "$work/cpu" || fail "CPU path: not the same results as numpy alone" "$work/plain" "$work/cpu"
[ "$(calls "$work/cpu.err")" = "$products 0" ] || fail "CPU path: tileblas did not see the $products products" "$work/cpu.err"
echo "PASS: CPU path: $products products through tileblas's cblas_sgemm, byte for byte numpy's own results"

LD_PRELOAD=$lib TILEBLAS_SUMMARY=1 "$py" "$check" "$seed" >"$work/auto" 2>"$work/auto.err" ||
  fail "numpy under tileblas, auto mode" "$work/auto" "$work/auto.err"
set -- $(calls "$work/auto.err")
[ "${1:-}" = "$products" ] || fail "auto mode: $products products, tileblas saw ${1:-none}" "$work/auto.err"
echo "PASS: auto mode: $products products, ${2:-0} of them on the GPU, all within the bound: $(cat "$work/auto")"

if grep -q '^tileblas:  GPU: none usable' "$work/auto.err"; then
  echo "SKIP: GPU path (no usable GPU)"
else
  LD_PRELOAD=$lib TILEBLAS_SUMMARY=1 TILEBLAS_MODE=gpu "$py" "$check" "$seed" >"$work/gpu" 2>"$work/gpu.err" ||
    fail "numpy under tileblas, GPU path" "$work/gpu" "$work/gpu.err"
  [ "$(calls "$work/gpu.err")" = "$products $products" ] || fail "GPU path: not all $products products on the GPU" "$work/gpu.err"
  echo "PASS: GPU path: $products products on the GPU, all within the bound: $(cat "$work/gpu")"
fi
