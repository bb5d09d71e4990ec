#!/bin/sh
# tileblas-run (the built script, pointed at the built library): sgemm-demo runs unmodified under it with its
# results right and its own output unchanged; the summary on stderr names both entry points, the paths, the flops,
# the time and the bytes moved; --mode, --verbose and --quiet do what they say; the program's exit status passes
# through; bad options are refused with status 2.
set -u
[ -z "${ASAN_PRELOAD:-}" ] || { echo "SKIP: the sanitizer build (ASan must come first in LD_PRELOAD)"; exit 77; }
. "${top_srcdir:-.}/tests/preamble.sh"
run=$builddir/tools/tileblas-run
demo=$builddir/examples/sgemm-demo
TILEBLAS_LIBRARY=$builddir/.libs/libtileblas.so
export TILEBLAS_LIBRARY
unset TILEBLAS_MODE TILEBLAS_VERBOSE TILEBLAS_SUMMARY
checksums() { sed -n 's/.*\(ok  checksum [0-9a-f]*\)$/\1/p' "$1"; }

"$demo" 100 >"$work/plain.out" 2>&1 || fail "sgemm-demo alone" "$work/plain.out"
"$run" "$demo" 100 >"$work/run.out" 2>"$work/run.err" || fail "tileblas-run sgemm-demo exited $?" "$work/run.out" "$work/run.err"
grep -q '^all results correct$' "$work/run.out" || fail "results under tileblas-run" "$work/run.out"
[ "$(checksums "$work/plain.out")" = "$(checksums "$work/run.out")" ] || fail "not the same results as alone (auto mode, CPU)" "$work/plain.out" "$work/run.out"
for want in '^tileblas: summary of BLAS calls:$' '^tileblas:  cblas_sgemm:$' '^tileblas:  sgemm_:$' \
  '^tileblas:  total: 6 calls, [0-9]* on the GPU, [0-9]* on the CPU, 0 quick returns$' \
  '^tileblas:  total: [0-9.]* GFLOP in [0-9.]* s of calls, [0-9.]* s with any in progress: [0-9.]* TFLOP/s effective; [0-9.]* GB moved between host and device$'; do
  grep -q "$want" "$work/run.err" || fail "the summary lacks /$want/" "$work/run.err"
done
[ "$(grep -c ' col-major \| row-major ' "$work/run.err")" = 0 ] || fail "lines per call without --verbose" "$work/run.err"
echo "PASS: summary at exit, program's results unchanged"

"$run" --mode cpu "$demo" 100 >/dev/null 2>"$work/cpu.err"
grep -q 'total: 6 calls, 0 on the GPU, 6 on the CPU' "$work/cpu.err" || fail "--mode cpu" "$work/cpu.err"
"$run" -m CPU "$demo" 100 >/dev/null 2>"$work/cpu.err" || fail "--mode CPU (either case, as TILEBLAS_MODE) refused"
grep -q 'total: 6 calls, 0 on the GPU, 6 on the CPU' "$work/cpu.err" || fail "--mode CPU" "$work/cpu.err"
"$run" -v -m cpu "$demo" 100 >/dev/null 2>"$work/v.err"
[ "$(grep -c '^tileblas: \(cblas_sgemm\|sgemm_\) .* -> cpu ' "$work/v.err")" = 6 ] || fail "--verbose: a line per call" "$work/v.err"
"$run" -q "$demo" 100 >/dev/null 2>"$work/q.err"
[ ! -s "$work/q.err" ] || fail "--quiet printed" "$work/q.err"
TILEBLAS_VERBOSE=2 "$run" -q "$demo" 100 >/dev/null 2>"$work/q2.err"
! grep -q 'summary' "$work/q2.err" || fail "--quiet with TILEBLAS_VERBOSE=2 printed a summary" "$work/q2.err"
echo "PASS: --mode, --verbose, --quiet"

"$run" -m gpu "$demo" 300 >"$work/gpu.out" 2>"$work/gpu.err" || fail "--mode gpu exited $?" "$work/gpu.err"
grep -q '^all results correct$' "$work/gpu.out" || fail "--mode gpu: results" "$work/gpu.out"
if grep -q '^tileblas:  GPU: none usable' "$work/gpu.err"; then
  echo "SKIP: the GPU path (no usable GPU)"
else
  grep -q 'total: 6 calls, 6 on the GPU' "$work/gpu.err" || fail "--mode gpu: not on the GPU" "$work/gpu.err"
  ! grep -q 'effective; 0\.000 GB moved' "$work/gpu.err" || fail "--mode gpu: no bytes moved" "$work/gpu.err"
  echo "PASS: --mode gpu: 6 calls on the GPU, bytes moved counted"
fi

"$run" sh -c 'exit 3'
[ $? = 3 ] || fail "the program's exit status did not pass through"
# processes the program starts: quiet unless they call (ls), then named (sgemm-demo); the shell, the program,
# may or may not report (dash leaves with _exit, past the library's exit handler)
"$run" -m cpu sh -c "ls / >/dev/null; $demo 100 >/dev/null; exit 0" >/dev/null 2>"$work/kids.err"
[ "$(grep -c '^tileblas: summary of BLAS calls (process [0-9]*, started by the program):$' "$work/kids.err")" = 1 ] &&
  grep -q 'total: 6 calls' "$work/kids.err" ||
  fail "one summary for the child that called, none for the one that did not" "$work/kids.err"
echo "PASS: processes the program starts report only when they called, named"
for bad in "--mode fast $demo" "--frobnicate $demo" "--mode" ""; do
  # shellcheck disable=SC2086
  "$run" $bad >/dev/null 2>"$work/bad.err"
  [ $? = 2 ] && [ -s "$work/bad.err" ] || fail "tileblas-run $bad: not refused with status 2 and a message" "$work/bad.err"
done
TILEBLAS_LIBRARY=/nonexistent/libtileblas.so "$run" true 2>"$work/nolib.err"
[ $? = 2 ] && grep -q 'cannot read /nonexistent' "$work/nolib.err" || fail "a missing library" "$work/nolib.err"
"$run" --version | grep -q '^tileblas-run (tileblas) [0-9]' || fail "--version"
"$run" --help >"$work/help.out" 2>"$work/help.err" && grep -q '^usage: tileblas-run' "$work/help.out" &&
  [ ! -s "$work/help.err" ] || fail "--help: usage on stdout, status 0" "$work/help.out" "$work/help.err"
echo "PASS: exit status passes through; bad options, a missing library refused; --help, --version"

# --library relative to where tileblas-run starts, for a program that changes directory (before: the preload was
# lost there, and with it every call)
absdemo=$(cd "$(dirname "$demo")" && pwd)/$(basename "$demo")
(cd "$builddir" && "$run" -m cpu --library .libs/libtileblas.so sh -c "cd / && exec '$absdemo' 100") \
  >/dev/null 2>"$work/rel.err" || fail "--library with a relative path" "$work/rel.err"
grep -q 'total: 6 calls' "$work/rel.err" || fail "--library relative: the program lost the library" "$work/rel.err"
# a path LD_PRELOAD cannot hold (it splits on blanks): refused, not run without the library
mkdir "$work/a dir" && cp "$builddir/.libs/libtileblas.so" "$work/a dir/"
"$run" --library "$work/a dir/libtileblas.so" true 2>"$work/space.err"
[ $? = 2 ] && grep -q 'blanks or colons' "$work/space.err" || fail "--library with a blank: not refused" "$work/space.err"
echo "PASS: --library: a relative path made absolute, a path with a blank refused"
