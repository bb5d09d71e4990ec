#!/bin/sh
# scipy, unmodified: its own BLAS names (scipy_sgemm_, scipy_dgemm_, scipy_cgemm_, scipy_zgemm_ of the
# scipy-openblas library of scipy's wheels, 32-bit integers) through scipy.linalg.blas, and scipy.linalg.expm, whose
# products reach scipy_dgemm_ through the symbol table (tests/scipy_check.py), with and without tileblas preloaded,
# for each python3 with scipy among python3 on the PATH and those named in TILEBLAS_TEST_PYTHON (.ci/run names a
# venv with scipy's wheel).  Every product within the bound of doc/TESTING.md of one in higher precision; on the
# CPU path the results are byte for byte those without tileblas; the summary counts exactly the products asked of
# the type's scipy_ name (expm: some), its rank-k and rank-2k updates and its products with a symmetric operand
# (scipy.linalg.blas's ?syrk, ?herk, ?syr2k, ?her2k, ?symm, ?hemm); with a GPU, all of
# them forced there.  SKIP (77) without a python3 that has
# scipy.
set -u
[ -z "${ASAN_PRELOAD:-}" ] || { echo "SKIP: the sanitizer build (python under ASan)"; exit 77; }
. "${top_srcdir:-.}/tests/preamble.sh"
check=$srcdir/tests/scipy_check.py
seed=${TILEBLAS_TEST_SEED:-$(date +%s)}
echo "seed $seed (TILEBLAS_TEST_SEED=$seed replays it)"
unset TILEBLAS_MODE TILEBLAS_VERBOSE

# scipy_calls s|d|c|z FILE: "CALLS ON_GPU" of the type's scipy_ name alone (numpy's own products are apart);
# updates_seen: "CALLS ON_GPU" of its scipy_ SYRK, HERK, SYR2K, HER2K, SYMM and HEMM names, one after the other
scipy_calls() {
  gemm_calls "$1" "$2" "scipy_$1gemm_"
}
updates_seen() {
  for r in syrk herk syr2k her2k symm hemm; do printf '%s ' "$(routine_calls "$1$r" "$2" "scipy_$1${r}_")"; done
}

# one python and what: $1, float32 ... complex128 or expm ($2)
with() {
  py=$1 what=$2
  case $what in float32) t=s ;; float64 | expm) t=d ;; complex64) t=c ;; *) t=z ;; esac
  "$py" "$check" "$seed" "$what" >"$work/plain" 2>&1 || fail "$py $what: scipy alone" "$work/plain"
  products=$(sed -n 's/^products \([0-9]*\) .*/\1/p' "$work/plain")
  LD_PRELOAD=$lib TILEBLAS_SUMMARY=1 TILEBLAS_MODE=cpu "$py" "$check" "$seed" "$what" >"$work/cpu" 2>"$work/cpu.err" ||
    fail "$py $what: under tileblas, CPU path" "$work/cpu" "$work/cpu.err"
  cmp -s "$work/plain" "$work/cpu" ||
    fail "$py $what: CPU path: not the same results as scipy alone" "$work/plain" "$work/cpu"
  set -- $(scipy_calls $t "$work/cpu.err")
  if [ "$products" = 0 ]; then
    [ "${1:-0}" -gt 0 ] || fail "$py $what: CPU path: tileblas saw no scipy_${t}gemm_ call" "$work/cpu.err"
    products=$1
  else
    [ "$1 $2" = "$products 0" ] || fail "$py $what: CPU path: tileblas did not see the $products products" "$work/cpu.err"
  fi
  n='\([0-9]*\)'
  updates=$(sed -n "s/^products [0-9]* syrk $n herk $n syr2k $n her2k $n symm $n hemm $n .*/\\1 \\2 \\3 \\4 \\5 \\6/p" \
    "$work/plain")
  if [ "$what" != expm ]; then
    set -- $(updates_seen $t "$work/cpu.err")
    [ "$1 $3 $5 $7 $9 ${11}" = "$updates" ] && [ "$2 $4 $6 $8 ${10} ${12}" = "0 0 0 0 0 0" ] ||
      fail "$py $what: CPU path: tileblas saw $1 $3 $5 $7 $9 ${11} calls (syrk herk syr2k her2k symm hemm), want" \
        "$updates" "$work/cpu.err"
  fi
  echo "PASS: $py $what: CPU path: $products calls of scipy_${t}gemm_ and the others (syrk herk syr2k her2k symm" \
    "hemm: ${updates:-0 0 0 0 0 0})" \
    "through tileblas, byte for byte scipy's own results"

  rm -f "$work/gpu.err"
  auto_then_gpu "scipy_calls $t" "$py $what" "$products" "$py" "$check" "$seed" "$what"
  if [ -f "$work/gpu.err" ] && [ "$what" != expm ]; then # the GPU path ran: the rank-k updates there too
    set -- $(updates_seen $t "$work/gpu.err")
    [ "$1 $3 $5 $7 $9 ${11}" = "$2 $4 $6 $8 ${10} ${12}" ] && [ "$1 $3 $5 $7 $9 ${11}" = "$updates" ] ||
      fail "$py $what: GPU path: not all $updates calls on the GPU" "$work/gpu.err"
    echo "PASS: $py $what: GPU path: the others (syrk herk syr2k her2k symm hemm: $updates) on the GPU, within" \
      "the bound"
  fi
}

tested=
for p in $(command -v python3 2>/dev/null) ${TILEBLAS_TEST_PYTHON:-}; do
  path=$(command -v "$p" 2>/dev/null || echo "$p")
  case " $tested " in *" $path "*) continue ;; esac
  if "$p" -c 'import scipy.linalg.blas' 2>/dev/null; then
    echo "== $p: scipy $("$p" -c 'import scipy; print(scipy.__version__)')"
    for what in float32 float64 complex64 complex128 expm; do with "$p" $what; done
    tested="$tested $path"
  fi
done
[ -n "$tested" ] || { echo "SKIP: no python3 with scipy (pip install scipy)"; exit 77; }
