#!/bin/sh
# The ILP64 names cblas_sgemm64_ and sgemm_64_, in a program written against them (tests/ilp64-demo.c) and linked
# with an OpenBLAS that has them (tests/openblas64-suffix.c over Debian's ILP64 libopenblas64.so.0, named as
# SYMBOLSUFFIX=64_ builds are: libopenblas64_.so.0).  Under tileblas: its 5 calls counted under their own names, the
# CPU path byte for byte the library's own results, the GPU path right; and a program linked with tileblas alone
# finds libopenblas64_.so.0 by itself.  SKIP (77) without libopenblas64.so.0 (Debian: libopenblas64-0-pthread).
. "${top_srcdir:-.}/tests/preamble.sh"
cc=${CC:-cc}
$cc -O2 -shared -fPIC -o "$work/libopenblas64_.so.0" "$srcdir/tests/openblas64-suffix.c" -ldl 2>"$work/cc.log" ||
  fail "building the stand-in" "$work/cc.log"
$cc -O2 -o "$work/demo" "$srcdir/tests/ilp64-demo.c" -L"$work" -l:libopenblas64_.so.0 -Wl,-rpath,"$work" -lm \
  2>"$work/cc.log" || fail "building the demo" "$work/cc.log"
"$work/demo" >"$work/plain" 2>"$work/plain.err"
if grep -q '^openblas64-suffix:' "$work/plain.err"; then
  echo "SKIP: no ILP64 OpenBLAS (libopenblas64.so.0; Debian: apt-get install libopenblas64-0-pthread)"
  exit 77
fi
grep -q '^all results correct$' "$work/plain" || fail "the demo alone" "$work/plain" "$work/plain.err"
checksums() { sed -n 's/.*\(checksum [0-9a-f]*\)$/\1/p' "$1"; }
unset TILEBLAS_MODE TILEBLAS_VERBOSE

LD_PRELOAD=$lib TILEBLAS_SUMMARY=1 TILEBLAS_MODE=cpu "$work/demo" >"$work/cpu" 2>"$work/cpu.err" ||
  fail "under tileblas, CPU path" "$work/cpu" "$work/cpu.err"
[ "$(checksums "$work/plain")" = "$(checksums "$work/cpu")" ] || fail "CPU path: not the library's own results" "$work/plain" "$work/cpu"
grep -q 'total: 5 calls, 0 on the GPU, 5 on the CPU' "$work/cpu.err" || fail "CPU path: calls not counted" "$work/cpu.err"
[ "$(grep -c '^tileblas:  \(cblas_sgemm64_\|sgemm_64_\):$' "$work/cpu.err")" = 2 ] ||
  fail "CPU path: the summary does not name cblas_sgemm64_ and sgemm_64_" "$work/cpu.err"
echo "PASS: CPU path: 5 calls through tileblas's cblas_sgemm64_ and sgemm_64_, byte for byte the ILP64 library's"

$cc -O2 -o "$work/demo-tb" "$srcdir/tests/ilp64-demo.c" -L"$builddir/.libs" -ltileblas \
  -Wl,-rpath,"$(cd "$builddir/.libs" && pwd)" -lm 2>"$work/cc.log" || fail "building the demo against tileblas" "$work/cc.log"
LD_PRELOAD=$asan LD_LIBRARY_PATH=$work TILEBLAS_SUMMARY=1 TILEBLAS_MODE=cpu "$work/demo-tb" >"$work/own" 2>"$work/own.err" ||
  fail "linked with tileblas alone" "$work/own" "$work/own.err"
[ "$(checksums "$work/plain")" = "$(checksums "$work/own")" ] || fail "linked with tileblas alone: results" "$work/own"
grep -q 'CPU BLAS for cblas_sgemm64_: .*libopenblas64_.so.0$' "$work/own.err" ||
  fail "linked with tileblas alone: libopenblas64_.so.0 not found" "$work/own.err"
echo "PASS: a program linked with tileblas alone: libopenblas64_.so.0 opened for the 64_ names"

LD_PRELOAD=$lib TILEBLAS_SUMMARY=1 TILEBLAS_MODE=gpu "$work/demo" >"$work/gpu" 2>"$work/gpu.err" ||
  fail "under tileblas, GPU path" "$work/gpu" "$work/gpu.err"
if grep -q '^tileblas:  GPU: none usable' "$work/gpu.err"; then
  echo "SKIP: GPU path (no usable GPU)"
else
  grep -q 'total: 5 calls, 5 on the GPU' "$work/gpu.err" || fail "GPU path: not all on the GPU" "$work/gpu.err"
  echo "PASS: GPU path: 5 ILP64 calls on the GPU, right"
fi
