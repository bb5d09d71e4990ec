#!/bin/sh
# make install into a staging root (DESTDIR): the library, the header, tileblas.pc, tileblas-run (and the CUDA
# tools when built), the man pages; a C program built against the staged copy with pkg-config has its calls
# handled by it; the staged tileblas-run preloads the staged library; make uninstall leaves no file behind.
set -u
[ -z "${ASAN_PRELOAD:-}" ] || { echo "SKIP: the sanitizer build (its library needs ASan preloaded)"; exit 77; }
. "${top_srcdir:-.}/tests/preamble.sh"
root=$work/root
mk() { ${MAKE:-make} -C "$builddir" --no-print-directory "$@" DESTDIR="$root" >"$work/make.log" 2>&1; }
var() { ${MAKE:-make} -C "$builddir" --no-print-directory -s print-install-dirs | sed -n "s/^$1=//p"; }

mk install || fail "make install DESTDIR=..." "$work/make.log"
libdir=$(var libdir) bindir=$(var bindir) includedir=$(var includedir) mandir=$(var mandir) pkglibdir=$(var pkglibdir)
for f in "$libdir/libtileblas.so" "$includedir/tileblas.h" "$libdir/pkgconfig/tileblas.pc" "$bindir/tileblas-run" \
  "$mandir/man1/tileblas-run.1" "$mandir/man7/tileblas.7"; do
  [ -e "$root$f" ] || fail "not installed: $f" "$work/make.log"
done
if [ -x "$builddir/tools/tileblas-bench" ]; then
  for f in "$bindir/tileblas-bench" "$bindir/tileblas-calibrate" "$mandir/man1/tileblas-bench.1" \
    "$mandir/man1/tileblas-calibrate.1" "$pkglibdir/tileblas-gpu.so"; do
    [ -e "$root$f" ] || fail "not installed: $f"
  done
fi
grep -q "$libdir/libtileblas.so" "$root$bindir/tileblas-run" || fail "tileblas-run does not name $libdir/libtileblas.so"
echo "PASS: make install: library, header, tileblas.pc, tileblas-run, tools, man pages"

# a program built against the staged copy, as a user builds against an installed one
flags=$(PKG_CONFIG_PATH="$root$libdir/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$root" pkg-config --cflags --libs tileblas) ||
  fail "pkg-config tileblas"
${CC:-cc} -o "$work/demo" "${top_srcdir:-.}/examples/sgemm-demo.c" $flags -Wl,-rpath,"$root$libdir" \
  ${OPENBLAS_LIBS:--lopenblas} -lm 2>"$work/cc.log" || fail "building against the installed copy" "$work/cc.log"
TILEBLAS_SUMMARY=1 TILEBLAS_MODE=cpu "$work/demo" 100 >"$work/demo.out" 2>"$work/demo.err" ||
  fail "the program built against it" "$work/demo.out" "$work/demo.err"
grep -q '^all results correct$' "$work/demo.out" || fail "results" "$work/demo.out"
grep -q 'total: 6 calls, 0 on the GPU, 6 on the CPU' "$work/demo.err" || fail "calls not handled by tileblas" "$work/demo.err"
echo "PASS: a program built with pkg-config against the installed copy: its 6 calls through tileblas, right"

# the staged library finds its GPU module where it was staged (found from its own place, not the configured one)
if [ -x "$builddir/tools/tileblas-bench" ]; then
  TILEBLAS_SUMMARY=1 TILEBLAS_MODE=gpu "$work/demo" 100 >"$work/gpu.out" 2>"$work/gpu.err" ||
    fail "the program in GPU mode" "$work/gpu.out" "$work/gpu.err"
  grep -q 'GPU module' "$work/gpu.err" && fail "the installed library does not load its GPU module" "$work/gpu.err"
  grep -q ' GPU: ' "$work/gpu.err" || fail "no GPU line in the summary" "$work/gpu.err"
  echo "PASS: the installed library loads its GPU module ($(sed -n 's/^tileblas:  GPU: //p' "$work/gpu.err"))"
fi

TILEBLAS_LIBRARY="$root$libdir/libtileblas.so" TILEBLAS_MODE=cpu "$root$bindir/tileblas-run" \
  "${builddir}/examples/sgemm-demo" 100 >"$work/run.out" 2>"$work/run.err" || fail "installed tileblas-run" "$work/run.err"
grep -q 'total: 6 calls' "$work/run.err" || fail "installed tileblas-run: no summary" "$work/run.err"
man -l "$root$mandir/man7/tileblas.7" >/dev/null 2>&1 || ! command -v man >/dev/null || fail "man tileblas.7"
echo "PASS: the installed tileblas-run and man pages work"

mk uninstall || fail "make uninstall" "$work/make.log"
left=$(find "$root" -type f -o -type l)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "PASS: make uninstall removes every file"
