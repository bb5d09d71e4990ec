#!/bin/sh
# Fortran programs, unmodified: examples/sgemm-fortran.f90 and examples/zgemm-fortran.f90 built with gfortran
# against OpenBLAS, run alone and with tileblas preloaded.  Each checks its own five products (SGEMM: every
# transpose pair, 64^3 to 1000^3; ZGEMM: complex scalars, N, T and C ops) against sums in higher precision; under
# tileblas the summary must count its 5 sgemm_ (zgemm_) calls, the CPU path must print exactly what the program
# prints alone, and with a GPU all 5 forced there must be right.  TILEBLAS_FORTRAN_PROGRAMS names a directory of
# the two programs built elsewhere (as sgemm-fortran and zgemm-fortran, against OpenBLAS; with the Fortran runtime
# they link, where the host lacks it), for hosts without a Fortran compiler.  SKIP (77) without either.
. "${top_srcdir:-.}/tests/preamble.sh"
fc=${FC:-gfortran}
built=${TILEBLAS_FORTRAN_PROGRAMS:-}
if [ -n "$built" ]; then
  export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$built"
elif ! command -v "$fc" >/dev/null 2>&1; then
  echo "SKIP: no Fortran compiler ($fc; apt-get install gfortran)"
  exit 77
fi
unset TILEBLAS_MODE TILEBLAS_VERBOSE
for name in sgemm zgemm; do
  prog=$work/$name
  if [ -n "$built" ]; then
    cp "$built/$name-fortran" "$prog" || fail "TILEBLAS_FORTRAN_PROGRAMS=$built has no $name-fortran"
  else
    "$fc" -O2 -o "$prog" "$srcdir/examples/$name-fortran.f90" ${OPENBLAS_LIBS:--lopenblas} 2>"$work/fc.log" ||
      fail "building examples/$name-fortran.f90" "$work/fc.log"
  fi
  "$prog" >"$work/plain" 2>&1 || fail "$name: the program alone" "$work/plain"
  for mode in cpu auto gpu; do
    LD_PRELOAD=$lib TILEBLAS_SUMMARY=1 TILEBLAS_MODE=$mode "$prog" >"$work/$mode" 2>"$work/$mode.err" ||
      fail "$name: under tileblas, TILEBLAS_MODE=$mode" "$work/$mode" "$work/$mode.err"
    grep -q "^tileblas:  ${name}_:\$" "$work/$mode.err" || fail "$name $mode: no ${name}_ calls in the summary" "$work/$mode.err"
    set -- $(calls "$work/$mode.err")
    [ "${1:-}" = 5 ] || fail "$name $mode: tileblas saw ${1:-no} calls, not 5" "$work/$mode.err"
    case $mode in
      cpu) cmp -s "$work/plain" "$work/cpu" ||
             fail "$name: CPU path: output differs from the program alone" "$work/plain" "$work/cpu"
           echo "PASS: $name: CPU path: 5 ${name}_ calls through tileblas, the program's output unchanged" ;;
      auto) echo "PASS: $name: auto mode: 5 ${name}_ calls, $2 on the GPU, all right" ;;
      gpu) if grep -q '^tileblas:  GPU: none usable' "$work/gpu.err"; then echo "SKIP: $name: GPU path (no usable GPU)"
           elif [ "$2" = 5 ]; then echo "PASS: $name: GPU path: 5 ${name}_ calls on the GPU, all right"
           else fail "$name: GPU path: $2 of 5 on the GPU" "$work/gpu.err"; fi ;;
    esac
  done
done
