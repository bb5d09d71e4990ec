#!/bin/sh
# numpy, unmodified: float32, float64, complex64 and complex128 products of tests/numpy_check.py (C- and
# Fortran-ordered operands, transposed views, np.dot, a stack) through numpy's BLAS, with and without tileblas
# preloaded, for each python3 with numpy among /usr/bin/python3 (Debian's numpy: cblas_sgemm, cblas_dgemm,
# cblas_cgemm and cblas_zgemm of the system BLAS), python3 on the PATH, and those named in TILEBLAS_TEST_PYTHON
# (space-separated; .ci/run names a venv with numpy's wheel: scipy_cblas_sgemm64_ and the like of its
# scipy-openblas64).  Every product within the bound of doc/TESTING.md of one in higher precision; on the CPU path
# the results are byte for byte those without tileblas; the summary counts exactly the products and rank-k updates
# (a @ a.T: ?syrk) numpy handed to its BLAS (of the type's names); with a GPU, all of them forced there.  SKIP (77) without any python3 that has numpy.
set -u
[ -z "${ASAN_PRELOAD:-}" ] || { echo "SKIP: the sanitizer build (python under ASan)"; exit 77; }
. "${top_srcdir:-.}/tests/preamble.sh"
check=$srcdir/tests/numpy_check.py
seed=${TILEBLAS_TEST_SEED:-$(date +%s)}
echo "seed $seed (TILEBLAS_TEST_SEED=$seed replays it)"
unset TILEBLAS_MODE TILEBLAS_VERBOSE

# one python and type: $1, float32 or float64 ($2)
with() {
  py=$1 dtype=$2
  case $dtype in float32) t=s ;; float64) t=d ;; complex64) t=c ;; *) t=z ;; esac
  "$py" "$check" "$seed" "$dtype" >"$work/plain" 2>&1 || fail "$py $dtype: numpy alone" "$work/plain"
  products=$(sed -n 's/^products \([0-9]*\) .*/\1/p' "$work/plain")
  [ "${products:-0}" -gt 0 ] || fail "$py $dtype: no products counted" "$work/plain"
  LD_PRELOAD=$lib TILEBLAS_SUMMARY=1 TILEBLAS_MODE=cpu "$py" "$check" "$seed" "$dtype" >"$work/cpu" 2>"$work/cpu.err" ||
    fail "$py $dtype: under tileblas, CPU path" "$work/cpu" "$work/cpu.err"
  names=$(sed -n "s/^tileblas:  \([a-z_0-9]*${t}gemm[a-z_0-9]*\):\$/\1/p" "$work/cpu.err" | tr '\n' ' ')
  cmp -s "$work/plain" "$work/cpu" ||
    fail "$py $dtype: CPU path: not the same results as numpy alone" "$work/plain" "$work/cpu"
  [ "$(gemm_calls $t "$work/cpu.err")" = "$products 0" ] ||
    fail "$py $dtype: CPU path: tileblas did not see the $products products" "$work/cpu.err"
  syrks=$(sed -n 's/^products [0-9]* syrk \([0-9]*\) .*/\1/p' "$work/plain")
  [ "$(routine_calls ${t}syrk "$work/cpu.err")" = "$syrks 0" ] ||
    fail "$py $dtype: CPU path: tileblas did not see the $syrks rank-k updates (a @ a.T)" "$work/cpu.err"
  echo "PASS: $py $dtype: CPU path: $products products through tileblas's ${names% }, $syrks rank-k updates" \
    "(a @ a.T), byte for byte numpy's own results"

  rm -f "$work/gpu.err"
  auto_then_gpu "gemm_calls $t" "$py $dtype" "$products" "$py" "$check" "$seed" "$dtype"
  if [ -f "$work/gpu.err" ]; then # the GPU path ran: the rank-k updates there too, within the bound
    [ "$(routine_calls ${t}syrk "$work/gpu.err")" = "$syrks $syrks" ] ||
      fail "$py $dtype: GPU path: not all $syrks rank-k updates on the GPU" "$work/gpu.err"
    echo "PASS: $py $dtype: GPU path: $syrks rank-k updates (a @ a.T) on the GPU, within the bound"
  fi
}

tested=
for p in /usr/bin/python3 $(command -v python3 2>/dev/null) ${TILEBLAS_TEST_PYTHON:-}; do
  path=$(command -v "$p" 2>/dev/null || echo "$p")
  case " $tested " in *" $path "*) continue ;; esac  # by path: a venv's python links to the system's
  if "$p" -c 'import numpy' 2>/dev/null; then
    echo "== $p: numpy $("$p" -c 'import numpy; print(numpy.__version__)')"
    for dtype in float32 float64 complex64 complex128; do with "$p" $dtype; done
    tested="$tested $path"
  elif [ -n "${TILEBLAS_TEST_PYTHON:-}" ] && case " $TILEBLAS_TEST_PYTHON " in *" $p "*) true ;; *) false ;; esac; then
    fail "TILEBLAS_TEST_PYTHON names $p, which has no numpy"
  fi
done
[ -n "$tested" ] || { echo "SKIP: no python3 with numpy (apt-get install python3-numpy)"; exit 77; }
