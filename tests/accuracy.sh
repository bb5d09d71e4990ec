#!/bin/sh
# FP32 on the tensor cores is as accurate as cuBLAS's FP32 SGEMM: tileblas-bench --accuracy measures, against an
# FP64 product of the same inputs, each element's relative error for tc32 and tc128 and for cuBLAS FP32, on six
# input sets (uniform, normal, widely spread exponents, near FLT_MIN times large, near FLT_MAX).  Required for each
# set: a median no larger than cuBLAS's; a largest error at most twice cuBLAS's, over the elements cuBLAS gives
# finite (max-cb: near FLT_MAX cuBLAS's sums overflow on elements it then leaves out of its own); no more
# spurious Inf or NaN than cuBLAS's.  Shapes: 2048^3 (tc32's own tiles) and 300x200x8192 TT (tc128 splitting k;
# tc32 hands that shape to blocked, so only tc128 is held to it).  Fixed seeds, printed.
# SKIP (77) without a GPU, without cuBLAS, or off compute capability 9.0 (where both hand every call to blocked).
. "${top_srcdir:-.}/tests/preamble.sh"
bench=$builddir/tools/tileblas-bench
[ -x "$bench" ] || { echo "SKIP: tileblas-bench is not built (no CUDA)"; exit 77; }
check() { # check SEED KERNELS BENCH-ARGS...: run, then hold every KERNELS row to cuBLAS-fp32's of its group
  seed=$1 kernels=$2
  shift 2
  "$bench" --accuracy --kernels "$kernels" --seed "$seed" "$@" >"$work/out.txt" 2>&1
  status=$?
  cat "$work/out.txt"
  [ $status = 77 ] && { echo "SKIP: no usable GPU"; exit 77; }
  grep -q 'compute capability 9\.0;' "$work/out.txt" || { echo "SKIP: not compute capability 9.0"; exit 77; }
  [ $status = 0 ] || fail "tileblas-bench --accuracy exited $status (seed $seed)"
  grep -q ' cuBLAS-fp32 ' "$work/out.txt" || { echo "SKIP: no cuBLAS to compare with"; exit 77; }
  # rows: shape op inputs impl median max max-cb bound spurious missed; cuBLAS-fp32 follows the kernels of its group
  awk -v kernels="$kernels" -v seed="$seed" '
    BEGIN { n = split(kernels, ks, ","); for (i = 1; i <= n; i++) want[ks[i]] = 1 }
    $4 in want { med[$4] = $5; max[$4] = $7; spur[$4] = $9; next }
    $4 == "cuBLAS-fp32" {
      for (k in want) {
        if (!(k in med)) { printf "FAIL: %s %s %s: no row for %s\n", $1, $2, $3, k; bad = 1; continue }
        if (med[k] > $5) { printf "FAIL: %s %s %s %s: median %s > cuBLAS %s\n", $1, $2, $3, k, med[k], $5; bad = 1 }
        if (max[k] > 2 * $6) { printf "FAIL: %s %s %s %s: max-cb %s > 2 x cuBLAS %s\n", $1, $2, $3, k, max[k], $6; bad = 1 }
        if (spur[k] > $9) { printf "FAIL: %s %s %s %s: %s spurious > cuBLAS %s\n", $1, $2, $3, k, spur[k], $9; bad = 1 }
        checked++
      }
      delete med; delete max; delete spur
    }
    END { if (!checked) { print "FAIL: nothing compared"; bad = 1 }
          if (!bad) printf "PASS: %d kernel rows within cuBLAS FP32 (seed %s)\n", checked, seed; exit bad }
  ' "$work/out.txt" || exit 1
}
check 20261203 tc32,tc128 --shape 2048
check 20261204 tc128 --shape 300x200x8192 --trans TT
