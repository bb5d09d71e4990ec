#!/bin/sh
# The reference BLAS testers (Debian's libblas-test) under tileblas: xblat3s, xblat3d, xblat3c and xblat3z (the
# Fortran level-3 testers of each type, error exits included) against the reference BLAS and against OpenBLAS, and
# xscblat3, xdcblat3, xccblat3 and xzcblat3 (the CBLAS level-3 testers, which need the reference CBLAS), each with
# tileblas preloaded in every mode of TILEBLAS_TEST_MODES (default: cpu auto; add gpu on a GPU host).  Those of the
# other types than single precision run where the directory has them.  Every tester must pass as it passes without tileblas.  TILEBLAS_BLAS_TESTERS names a
# directory holding the testers, their input files and the reference libblas.so.3, for hosts without the package
# (with the Fortran runtime they link, libgfortran.so.5 and libquadmath.so.0, where the host lacks it: the
# directory stays on the library path behind the BLAS under test).
# SKIP (77) without the testers.
. "${top_srcdir:-.}/tests/preamble.sh"
multiarch=$(${CC:-cc} -print-multiarch 2>/dev/null)
sys=/usr/lib/${multiarch:-x86_64-linux-gnu}
dir=${TILEBLAS_BLAS_TESTERS:-$sys/blas}
if [ ! -x "$dir/xblat3s" ] || [ ! -x "$dir/xscblat3" ]; then
  echo "SKIP: no BLAS testers in $dir (Debian: apt-get install libblas-test)"
  exit 77
fi
unset TILEBLAS_MODE TILEBLAS_VERBOSE TILEBLAS_SUMMARY TILEBLAS_CPU_BLAS
export OPENBLAS_NUM_THREADS=1
openblas=
for d in "$sys/openblas-pthread" "$sys/openblas-openmp" "$sys/openblas-serial"; do
  [ -e "$d/libblas.so.3" ] && { openblas=$d; break; }
done

# tester NAME INPUT BLASDIR MODE: run it in a scratch directory (it writes its summary file there); "" = alone
tester() {
  t=$1 input=$2 blasdir=$3 mode=$4
  path=$blasdir${TILEBLAS_BLAS_TESTERS:+:$dir}
  rm -rf "$work/run" && mkdir "$work/run"
  if [ -n "$mode" ]; then
    (cd "$work/run" && LD_LIBRARY_PATH=$path LD_PRELOAD=$lib TILEBLAS_MODE=$mode "$dir/$t" <"$dir/$input" \
      >stdout 2>stderr)
  else
    (cd "$work/run" && LD_LIBRARY_PATH=$path "$dir/$t" <"$dir/$input" >stdout 2>stderr)
  fi
  status=$?
  cat "$work/run"/* >"$work/report"
  label="$t on $(basename "$blasdir")${mode:+, under tileblas in $mode mode}"
  [ $status = 0 ] || fail "$label: exit status $status" "$work/report"
  if grep -q -i -E 'FAIL|\*\*\*\*|ILLEGAL VALUE|NOT DETECTED' "$work/report"; then fail "$label" "$work/report"; fi
  grep -q -i 'GEMM .*PASSED THE TESTS OF ERROR-EXITS' "$work/report" || fail "$label: no error-exit pass" "$work/report"
  # the routines tileblas takes, each seen passing
  routines="GEMM SYMM SYRK SYR2K"
  case $t in xblat3[cz] | x[cz]cblat3) routines="$routines HEMM HERK HER2K" ;; esac
  for r in $routines; do
    grep -q -i "${r} .*PASSED THE .*COMPUTATIONAL TESTS" "$work/report" || fail "$label: no $r pass" "$work/report"
  done
  echo "PASS: $label"
}

for mode in "" ${TILEBLAS_TEST_MODES:-cpu auto}; do
  for p in s d c z; do
    [ -x "$dir/xblat3$p" ] || continue
    tester xblat3$p ${p}blat3.in "$dir" "$mode"
    [ -z "$openblas" ] || tester xblat3$p ${p}blat3.in "$openblas" "$mode"
    tester x${p}cblat3 ${p}in3 "$dir" "$mode"
  done
done
