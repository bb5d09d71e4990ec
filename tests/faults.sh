#!/bin/sh
# GPU failures, simulated with TILEBLAS_FAULT where the real ones arise: a missing driver, no device, device memory
# running out, a kernel that cannot launch, a CUDA error in the middle of a call (the 1st and the 5th operation),
# a device lost from the 2nd call on.  Under each, sgemm-demo (TILEBLAS_MODE=gpu, preloaded) must get every result
# right and exit 0, and tileblas must print exactly one warning; then the same of tests/routines-demo (the other
# routines) under the faults in the middle of a call.  Without a GPU only the first two are what they say (the
# others meet no GPU to fail; in a build without CUDA none is), and still must give right results and one warning.
set -u
builddir=${top_builddir:-.}
lib=$builddir/.libs/libtileblas.so
asan=${ASAN_PRELOAD:-}
pre="${asan:+$asan }$lib"
demo=$builddir/examples/sgemm-demo
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
for fault in nodriver nodevice oom launch error:1 error:5 lost:2; do
  LD_PRELOAD="$pre" TILEBLAS_MODE=gpu TILEBLAS_FAULT=$fault TILEBLAS_VERBOSE=2 "$demo" 300 >"$work/out" 2>"$work/err"
  status=$?
  warnings=$(grep -c -E '^tileblas: (GPU failed|TILEBLAS_MODE=gpu, but no GPU|operands in device memory)' "$work/err")
  if [ $status != 0 ] || ! grep -q '^all results correct$' "$work/out" || [ "$warnings" != 1 ]; then
    echo "FAIL: TILEBLAS_FAULT=$fault: status $status, $warnings warnings"; cat "$work/out" "$work/err"; fails=$((fails + 1))
    continue
  fi
  # what the summary says of the GPU afterwards: still usable (only oom leaves it on), or not
  usable=$(grep -c '^tileblas:  GPU: [^n]' "$work/err")
  case $fault in
    nodriver|nodevice) named="simulated: TILEBLAS_FAULT=$fault" ;;
    *) named="(simulated: TILEBLAS_FAULT)" ;;
  esac
  if grep -q 'built without CUDA' "$work/err"; then
    echo "PASS: $fault: right results, one warning (a build without CUDA: not simulated)"
  elif grep -qF "$named" "$work/err"; then
    if [ $fault = oom ] && [ "$usable" != 1 ]; then
      echo "FAIL: oom: the GPU was turned off; running out of memory must leave it on"; cat "$work/err"; fails=$((fails + 1))
    elif [ $fault != oom ] && [ "$usable" != 0 ]; then
      echo "FAIL: $fault: the GPU is still on after it failed"; cat "$work/err"; fails=$((fails + 1))
    else
      echo "PASS: $fault: right results, one warning naming it"
    fi
  elif grep -q '^tileblas: TILEBLAS_MODE=gpu, but no GPU' "$work/err" && [ "$usable" = 0 ]; then
    echo "PASS: $fault: right results, one warning (no GPU here: not simulated)"
  else
    echo "FAIL: $fault: the warning does not name the simulated fault"; cat "$work/err"; fails=$((fails + 1))
  fi
done
# the routines besides GEMM (tests/routines-demo: DSYMM, ZHEMM, DSYR2K, ZHERK against OpenBLAS) under the faults
# in the middle of a call, in blocks of at most 2 MB of device memory (many tiles: the CPU finishes those the GPU did
# not, as pieces of each routine): right results, one warning
routines=$builddir/tests/routines-demo
for fault in error:1 error:5 lost:2 oom; do
  [ -x "$routines" ] || break
  LD_PRELOAD="$pre" TILEBLAS_MODE=gpu TILEBLAS_FAULT=$fault TILEBLAS_GPU_MEMORY=2M "$routines" 300 >"$work/out" \
    2>"$work/err"
  status=$?
  warnings=$(grep -c -E '^tileblas: (GPU failed|TILEBLAS_MODE=gpu, but no GPU)' "$work/err")
  if [ $status != 0 ] || ! grep -q '^all results correct$' "$work/out" || [ "$warnings" != 1 ]; then
    echo "FAIL: routines, TILEBLAS_FAULT=$fault: status $status, $warnings warnings"; cat "$work/out" "$work/err"
    fails=$((fails + 1))
  else
    echo "PASS: routines (DSYMM, ZHEMM, DSYR2K, ZHERK), TILEBLAS_FAULT=$fault: right results, one warning"
  fi
done
[ $fails = 0 ]
