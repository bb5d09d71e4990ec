#!/bin/sh
# The summary at exit (TILEBLAS_SUMMARY=1) tells the truth about a program's calls:
#   - threads calling at once: the effective rate is over the time with any call in progress, not over the sum
#     of the threads' call times (which counts overlapping calls several times over);
#   - fork: a child reports only its own calls, and a child that made none reports nothing (its parent does);
#   - with a GPU: each GPU call's log line names its device, and the summary names the GPU once and counts the
#     GPU calls by device.
. "${top_srcdir:-.}/tests/preamble.sh"
cc=${CC:-cc}
$cc -O2 -o "$work/demo" "$srcdir/tests/summary-demo.c" ${OPENBLAS_LIBS:--lopenblas} -lpthread 2>"$work/cc.log" ||
  fail "building summary-demo" "$work/cc.log"
unset TILEBLAS_VERBOSE TILEBLAS_RUN_PID
export OPENBLAS_NUM_THREADS=1 TILEBLAS_SUMMARY=1 TILEBLAS_MODE=cpu

LD_PRELOAD=$lib "$work/demo" threads 8 20 256 >"$work/threads.out" 2>"$work/threads.err" ||
  fail "8 threads" "$work/threads.out" "$work/threads.err"
wall=$(sed -n 's/^wall //p' "$work/threads.out")
line=$(grep '^tileblas:  total: .* GFLOP in' "$work/threads.err") || fail "no total in the summary" "$work/threads.err"
set -- $(echo "$line" | sed -n 's/.* GFLOP in \([0-9.]*\) s of calls, \([0-9.]*\) s with any in progress: \([0-9.]*\) TFLOP\/s effective.*/\1 \2 \3/p')
[ $# = 3 ] || fail "the total line: $line"
sum=$1 busy=$2 rate=$3
gflop=$(echo "$line" | sed -n 's/^tileblas:  total: \([0-9.]*\) GFLOP.*/\1/p')
awk -v s="$sum" -v b="$busy" -v w="$wall" -v r="$rate" -v g="$gflop" 'BEGIN {
  # 160 calls of 256^3 by 8 threads at once: the calls overlap, so their times add up to several walls
  if (!(b > 0 && b <= w * 1.02 + 0.002)) { print "busy time " b " s is not within the wall time " w " s"; exit 1 }
  if (!(s > 1.5 * b)) { print "the calls did not overlap (sum " s " s, busy " b " s): the test proves nothing"; exit 1 }
  # the rate from the printed figures, within what their rounding to 3 decimals leaves
  if (!(r > 0 && (r - 1e-3 * g / b) ^ 2 <= (1e-3 + r * (0.0005 / b + 0.0005 / g)) ^ 2)) {
    print "rate " r " is not " g " GFLOP / " b " s"; exit 1 }
}' || fail "threads: $line (program's wall time $wall s)" "$work/threads.err"
echo "PASS: 8 threads at once: ${busy} s with a call in progress within the ${wall} s wall time, ${sum} s of calls; $rate TFLOP/s"

LD_PRELOAD=$lib "$work/demo" fork 0 >"$work/fork0.out" 2>"$work/fork0.err" || fail "fork, child without calls" "$work/fork0.err"
[ "$(grep -c 'summary of BLAS calls' "$work/fork0.err")" = 1 ] && grep -q 'total: 2 calls,' "$work/fork0.err" ||
  fail "a child that made no call printed a summary (of its parent's calls)" "$work/fork0.err"
LD_PRELOAD=$lib "$work/demo" fork 3 >"$work/fork3.out" 2>"$work/fork3.err" || fail "fork, child with calls" "$work/fork3.err"
[ "$(grep -c 'summary of BLAS calls' "$work/fork3.err")" = 2 ] && grep -q 'total: 2 calls,' "$work/fork3.err" &&
  grep -q 'total: 3 calls,' "$work/fork3.err" || fail "parent and child do not each report their own calls" "$work/fork3.err"
echo "PASS: fork: a child reports its own calls only, and nothing when it made none"

# With a GPU: the log names each GPU call's device, and the summary counts the GPU calls by device (each of the six
# on one device at least) after naming the GPU once
TILEBLAS_MODE=gpu TILEBLAS_VERBOSE=1 LD_PRELOAD=$lib "$work/demo" threads 2 3 256 >"$work/gpu.out" 2>"$work/gpu.err" ||
  fail "2 threads on the GPU" "$work/gpu.out" "$work/gpu.err"
if grep -q '^tileblas:  GPU: none usable' "$work/gpu.err"; then
  echo "PASS: (no usable GPU: the devices' part not run)"
else
  [ "$(grep -c -- '-> gpu devices\{0,1\} [0-9]' "$work/gpu.err")" = 6 ] || fail "GPU calls whose log does not name a device" "$work/gpu.err"
  [ "$(grep -c '^tileblas:  GPU: ' "$work/gpu.err")" = 1 ] || fail "the summary's GPU line not said once" "$work/gpu.err"
  by=$(sed -n 's/^tileblas:  GPU calls by device (a call spread over several counts on each): //p' "$work/gpu.err")
  echo "$by" | awk -F', ' '{ for (i = 1; i <= NF; i++) { split($i, f, ": "); n += f[2] } } END { exit !(NF >= 1 && n >= 6) }' ||
    fail "the summary's calls by device: '$by'" "$work/gpu.err"
  echo "PASS: the log names each GPU call's device; the summary counts them by device ($by)"
  # TILEBLAS_VERBOSE=2: each GPU call's line also says how its kernel ran (its recipe, after the kernel's name)
  TILEBLAS_MODE=gpu TILEBLAS_VERBOSE=2 LD_PRELOAD=$lib "$work/demo" threads 2 3 256 >"$work/gpu2.out" 2>"$work/gpu2.err" ||
    fail "2 threads on the GPU, TILEBLAS_VERBOSE=2" "$work/gpu2.out" "$work/gpu2.err"
  [ "$(grep -c -- '-> gpu devices\{0,1\} [0-9,]* [a-z0-9-]* (tile [0-9]*x[0-9]*' "$work/gpu2.err")" = 6 ] ||
    fail "TILEBLAS_VERBOSE=2: GPU calls whose log does not say their recipe" "$work/gpu2.err"
  echo "PASS: TILEBLAS_VERBOSE=2 says each GPU call's recipe ($(grep -m1 -o -- '-> gpu.*)' "$work/gpu2.err"))"
fi
