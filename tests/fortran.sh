#!/bin/sh
# A Fortran program, unmodified: examples/sgemm-fortran.f90 built with gfortran against OpenBLAS, run alone and
# with tileblas preloaded.  It checks its own five products (every transpose pair, 64^3 to 1000^3) against
# double-precision sums; under tileblas the summary must count its 5 sgemm_ calls, the CPU path must print exactly
# what the program prints alone, and with a GPU all 5 forced there must be right.  SKIP (77) without gfortran.
. "${top_srcdir:-.}/tests/preamble.sh"
fc=${FC:-gfortran}
command -v "$fc" >/dev/null 2>&1 || { echo "SKIP: no Fortran compiler ($fc; apt-get install gfortran)"; exit 77; }
"$fc" -O2 -o "$work/prog" "$srcdir/examples/sgemm-fortran.f90" ${OPENBLAS_LIBS:--lopenblas} 2>"$work/fc.log" ||
  fail "building examples/sgemm-fortran.f90" "$work/fc.log"
unset TILEBLAS_MODE TILEBLAS_VERBOSE
"$work/prog" >"$work/plain" 2>&1 || fail "the program alone" "$work/plain"
for mode in cpu auto gpu; do
  LD_PRELOAD=$lib TILEBLAS_SUMMARY=1 TILEBLAS_MODE=$mode "$work/prog" >"$work/$mode" 2>"$work/$mode.err" ||
    fail "under tileblas, TILEBLAS_MODE=$mode" "$work/$mode" "$work/$mode.err"
  grep -q '^tileblas:  sgemm_:$' "$work/$mode.err" || fail "$mode: no sgemm_ calls in the summary" "$work/$mode.err"
  set -- $(calls "$work/$mode.err")
  [ "${1:-}" = 5 ] || fail "$mode: tileblas saw ${1:-no} calls, not 5" "$work/$mode.err"
  case $mode in
    cpu) cmp -s "$work/plain" "$work/cpu" || fail "CPU path: output differs from the program alone" "$work/plain" "$work/cpu"
         echo "PASS: CPU path: 5 sgemm_ calls through tileblas, the program's output unchanged" ;;
    auto) echo "PASS: auto mode: 5 sgemm_ calls, $2 on the GPU, all right" ;;
    gpu) if grep -q '^tileblas:  GPU: none usable' "$work/gpu.err"; then echo "SKIP: GPU path (no usable GPU)"
         elif [ "$2" = 5 ]; then echo "PASS: GPU path: 5 sgemm_ calls on the GPU, all right"
         else fail "GPU path: $2 of 5 on the GPU" "$work/gpu.err"; fi ;;
  esac
done
