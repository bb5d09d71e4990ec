#!/bin/sh
# Differential tests: the same programs (tests/diff-blas.c: invalid calls, quick returns, edge cases and valid
# calls through cblas_sgemm and sgemm_, or their 64_ names; the same through the DGEMM, CGEMM and ZGEMM names;
# tests/diff-rankk.c: the same of SYRK, HERK, SYR2K and HER2K; tests/diff-symm.c: of SYMM and HEMM) run against a BLAS alone and under tileblas, in CPU
# and auto mode; their
# standard output, standard error and exit status must be identical.  Four BLAS builds: OpenBLAS, the reference
# BLAS (with its CBLAS), both LP64; Debian's ILP64 OpenBLAS (plain names, 64-bit integers), and the same through
# the 64_ names of OpenBLAS built with SYMBOLSUFFIX=64_ (tests/openblas64-suffix.c, a stand-in over it).  Each program comes
# with its own xerbla_ and cblas_xerbla (all cases in one run) and without (one run per case: an invalid call may
# end it).  A BLAS that is not installed is skipped; SKIP (77) when none is.
. "${top_srcdir:-.}/tests/preamble.sh"
cc=${CC:-cc}
multiarch=$($cc -print-multiarch 2>/dev/null)
libdir=/usr/lib/${multiarch:-x86_64-linux-gnu}
# name, library to link, directory that selects it at run time (LD_LIBRARY_PATH), integer type
blases="openblas $libdir/openblas-pthread/libblas.so.3 $libdir/openblas-pthread int
reference $libdir/blas/libblas.so.3 $libdir/blas int
openblas-ilp64 $libdir/openblas64-pthread/libblas64.so.3 $libdir/openblas64-pthread int64_t
openblas-64_ $work/libopenblas64_.so.0 $work int64_t"
if [ -e "$libdir/libopenblas64.so.0" ]; then
  $cc -O2 -shared -fPIC -o "$work/libopenblas64_.so.0" "$srcdir/tests/openblas64-suffix.c" -ldl 2>"$work/cc.log" ||
    fail "building the 64_ stand-in" "$work/cc.log"
fi
unset TILEBLAS_MODE TILEBLAS_VERBOSE TILEBLAS_SUMMARY TILEBLAS_CPU_BLAS
export OPENBLAS_NUM_THREADS=1
tested=0 cases_run=0

# run NAME DIR PROGRAM ARGS: alone, then under tileblas in each mode; any difference fails
run() {
  name=$1 dir=$2 prog=$3
  shift 3
  LD_LIBRARY_PATH=$dir "$prog" "$@" >"$work/alone.out" 2>"$work/alone.err"
  echo "exit $?" >>"$work/alone.out"
  for mode in cpu auto; do
    LD_LIBRARY_PATH=$dir LD_PRELOAD=$lib TILEBLAS_MODE=$mode "$prog" "$@" >"$work/tb.out" 2>"$work/tb.err"
    echo "exit $?" >>"$work/tb.out"
    if ! cmp -s "$work/alone.out" "$work/tb.out" || ! cmp -s "$work/alone.err" "$work/tb.err"; then
      echo "FAIL: $name, $(basename "$prog") $*, TILEBLAS_MODE=$mode: not as without tileblas"
      diff -u "$work/alone.out" "$work/tb.out" | head -n 40
      diff -u "$work/alone.err" "$work/tb.err" | head -n 20
      exit 1
    fi
  done
  cases_run=$((cases_run + 1))
}

while read -r name link dir int; do
  if [ ! -e "$link" ]; then
    echo "SKIP: $name ($link not installed)"
    continue
  fi
  defs="-DTB_INT=$int"
  [ "$int" = int ] || defs="$defs -DILP64"
  [ "$name" != openblas-64_ ] || defs="$defs -DSUFFIX64"
  for handlers in own none; do
   for type in s d c z; do
    for routines in blas rankk symm; do
    prog=$work/diff-$routines-$name-$handlers-$type
    extra=
    [ $handlers = own ] && extra=-DOWN_HANDLERS
    case $type in d) extra="$extra -DDOUBLE" ;; c) extra="$extra -DCOMPLEX" ;; z) extra="$extra -DCOMPLEX -DDOUBLE" ;; esac
    # shellcheck disable=SC2086
    $cc -O1 $defs $extra -o "$prog" "$srcdir/tests/diff-$routines.c" "$link" -Wl,-rpath,"$dir" 2>"$work/cc.log" ||
      fail "building the program for $name" "$work/cc.log"
    if [ $handlers = own ]; then
      run "$name" "$dir" "$prog" all
    else
      n=$(LD_LIBRARY_PATH=$dir "$prog" list)
      i=0
      while [ $i -lt "$n" ]; do
        run "$name" "$dir" "$prog" $i
        i=$((i + 1))
      done
    fi
    done
   done
  done
  tested=$((tested + 1))
  echo "PASS: $name: every case of ?GEMM, ?SYRK, ?HERK, ?SYR2K, ?HER2K, ?SYMM and ?HEMM as without tileblas (own handlers:" \
    "all in one run; none: one run per case)"
done <<EOF_BLASES
$blases
EOF_BLASES
[ $tested -gt 0 ] || { echo "SKIP: no BLAS to compare with"; exit 77; }
echo "PASS: $tested BLAS builds, $cases_run runs compared"
