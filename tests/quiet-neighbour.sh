#!/bin/sh
# Preloaded into programs that never call BLAS, tileblas must be a quiet neighbour: the same output and exit
# status, nothing on stderr, no CUDA loaded, no file opened, and next to no start-up time.  And, where there is a
# GPU, a program that exits while other threads are inside SGEMM calls on it must exit cleanly.
set -u
builddir=${top_builddir:-.}
srcdir=${top_srcdir:-.}
cc=${CC:-cc}
lib=$builddir/.libs/libtileblas.so
asan=${ASAN_PRELOAD:-}
pre="${asan:+$asan }$lib"
# under the sanitizers' runtime, the foreign programs' own leaks are not ours to report
[ -n "$asan" ] && export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

same() { # NAME COMMAND...: plain and preloaded runs give the same stdout and status, and no stderr
  name=$1; shift
  "$@" >"$work/plain" 2>/dev/null; s1=$?
  LD_PRELOAD="$pre" "$@" >"$work/pre" 2>"$work/err"; s2=$?
  if [ $s1 = $s2 ] && cmp -s "$work/plain" "$work/pre" && [ ! -s "$work/err" ]; then pass "$name: same output, silent"
  else fail "$name: status $s1 -> $s2, or output differs, or it printed:"; cat "$work/err"; fi
}
same "ls" ls /usr
same "sh" sh -c 'echo hello; exit 3'
if command -v python3 >/dev/null; then same "python3" python3 -c 'import sys; print(sys.version)'; fi

# no CUDA driver or runtime library mapped, no C++ runtime either (except the one the sanitizers' runtime brings)
unwanted='libcuda|libnvidia|libcudart|libstdc\+\+'
[ -n "$asan" ] && unwanted='libcuda|libnvidia|libcudart'
if LD_PRELOAD="$pre" cat /proc/self/maps >"$work/maps" && grep -q tileblas "$work/maps"; then
  if grep -Eq "$unwanted" "$work/maps"; then
    fail "loaded by a program that makes no call, it mapped: $(grep -Eo "[^/ ]*($unwanted)[^ ]*" "$work/maps" | sort -u | tr '\n' ' ')"
  else pass "no CUDA and no C++ runtime in a process that makes no call"; fi
else
  fail "the preloaded library is not in the process's maps"
fi

# no file opened (strace, where installed)
if command -v strace >/dev/null && strace -o "$work/trace" -e trace=open,openat true 2>/dev/null; then
  LD_PRELOAD="$pre" strace -o "$work/trace" -e trace=open,openat true
  if grep -v -E 'ld\.so|\.so(\.[0-9]+)*"|/proc/|/sys/' "$work/trace" | grep -q 'open'; then
    fail "files opened by a process that makes no call:"; grep -v -E 'ld\.so|\.so(\.[0-9]+)*"' "$work/trace"
  else pass "no file opened beyond the shared libraries"; fi
fi

# start-up time: the median of 101 runs of true, plain and preloaded in turn (so that the machine's load, as when
# other suites run beside this one, falls on both alike; not under the sanitizers' own runtime)
if [ -z "$asan" ] && command -v python3 >/dev/null; then
  extra=$(LIB=$lib python3 - <<'PY'
import os, statistics, subprocess, time
plain = dict(os.environ); pre = dict(os.environ, LD_PRELOAD=os.environ['LIB'])
t = {0: [], 1: []}
for _ in range(101):
    for k, env in ((0, plain), (1, pre)):
        t0 = time.perf_counter(); subprocess.run(['true'], env=env); t[k].append(time.perf_counter() - t0)
print('%.3f' % (1e3 * (statistics.median(t[1]) - statistics.median(t[0]))))
PY
)
  if awk -v x="$extra" 'BEGIN { exit !(x < 2.0) }'; then pass "start-up: $extra ms more per process (bound 2 ms)"
  else fail "start-up: $extra ms more per process"; fi
fi

# exit while other threads are inside SGEMM calls on the GPU, with the summary at exit: tileblas's own teardown with
# work outstanding.  (Not on the CPU path: OpenBLAS 0.3.21 itself hangs at exit with calls in flight on other
# threads, and crashes with OPENBLAS_NUM_THREADS=1, without tileblas in the process.)
cat >"$work/exit.c" <<'C'
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <tileblas.h>
static void *work(void *arg)
{
    int n = 768;
    float *a = calloc((size_t)n * n, sizeof *a), *c = calloc((size_t)n * n, sizeof *c);
    (void)arg;
    tileblas_set_path(TILEBLAS_PATH_GPU);
    for (;;)
        cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, a, n, 0.0f, c, n);
    return NULL;
}
int main(void)
{
    const char *why;
    if (!tileblas_gpu_available(&why)) {
        printf("%s\n", why);
        return 77;
    }
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, work, NULL);
    usleep(300000);
    exit(0);
}
C
flags=$(PKG_CONFIG_PATH=$builddir pkg-config --cflags --libs tileblas)
if $cc -o "$work/exit" "$work/exit.c" $flags -lpthread 2>"$work/cc.err"; then
  # a race: several exits, each of which must be clean
  for i in 1 2 3 4 5 6 7 8; do
    LD_PRELOAD=$asan LD_LIBRARY_PATH=$builddir/.libs TILEBLAS_VERBOSE=2 timeout 60 "$work/exit" >"$work/exit.out" \
      2>"$work/exit.err"
    status=$?
    [ $status = 0 ] && grep -q 'summary of BLAS calls' "$work/exit.err" || break
  done
  if [ $status = 77 ]; then echo "SKIP: exit with GPU calls in flight: no GPU ($(cat "$work/exit.out"))"
  elif [ $status = 0 ] && grep -q 'summary of BLAS calls' "$work/exit.err"; then
    pass "exit with SGEMM calls in flight on the GPU from two threads, 8 times: status 0, summary printed"
  else fail "exit with GPU calls in flight: status $status on exit $i"; tail -n 20 "$work/exit.err"; fi
else
  fail "cannot build the exit test: $(cat "$work/cc.err")"
fi
[ $fails = 0 ]
