#!/bin/sh
# Programs that behave as real ones do, alone and under tileblas (CPU path):
#   - extensions loaded privately (RTLD_LOCAL), as Python loads them, each linked to its own BLAS: OpenBLAS (LP64),
#     Debian's ILP64 OpenBLAS (plain names, 64-bit integers) and the reference BLAS, in one process, in either
#     order: each gets its own BLAS's bits, at its own integer width (tests/blas-two.c, tests/blas-ext.c);
#   - an error handler that leaves xerbla_ by longjmp, as R's does: the calls after it count (tests/xerbla-jump.c);
#   - the 64_ names with no ILP64 BLAS: every invalid call reported alike, through the program's xerbla_64_ where
#     it has one (tests/no-ilp64.c);
#   - a set-user-ID program linked with tileblas: TILEBLAS_CPU_BLAS and TILEBLAS_CALIBRATION ignored, silently
#     (tests/setuid-demo.c; needs root to make one);
#   - an unreadable calibration file in the user's place: skipped silently (said with TILEBLAS_VERBOSE=1);
#   - OpenBLAS's own LAPACK, whose inner dgemm_ calls reach tileblas: routed and counted as any caller's;
#   - a program linked with the reference BLAS that loads tileblas privately: its BLAS's bits;
#   - a plugin that calls dgemm_, unloaded and replaced: the new one runs (tests/process-cases.c).
# A part whose BLAS build is not installed is skipped.
. "${top_srcdir:-.}/tests/preamble.sh"
cc=${CC:-cc}
multiarch=$($cc -print-multiarch 2>/dev/null)
libdir=/usr/lib/${multiarch:-x86_64-linux-gnu}
seed=${TILEBLAS_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "seed $seed"
unset TILEBLAS_MODE TILEBLAS_VERBOSE TILEBLAS_SUMMARY TILEBLAS_CPU_BLAS TILEBLAS_CALIBRATION
export OPENBLAS_NUM_THREADS=1
ran=0

# ---- extensions with BLAS builds of their own, in one process
exts=
for x in "openblas $libdir/libopenblas.so.0 int" "ilp64 $libdir/libopenblas64.so.0 int64_t" \
  "reference $libdir/blas/libblas.so.3 int"; do
  set -- $x
  [ -e "$2" ] || { echo "SKIP: the $1 extension ($2 not installed)"; continue; }
  $cc -O1 -shared -fPIC -DBLASINT="$3" -o "$work/ext-$1.so" "$srcdir/tests/blas-ext.c" "$2" \
    -Wl,-rpath,"$(dirname "$2")" 2>"$work/cc.log" || fail "building the $1 extension" "$work/cc.log"
  exts="$exts $work/ext-$1.so"
done
if [ "$(echo $exts | wc -w)" -ge 2 ]; then
  $cc -O1 -o "$work/two" "$srcdir/tests/blas-two.c" -ldl 2>"$work/cc.log" || fail "building blas-two" "$work/cc.log"
  reversed=$(echo $exts | tr ' ' '\n' | tac | tr '\n' ' ')
  for order in "$exts" "$reversed"; do
    # shellcheck disable=SC2086
    "$work/two" "$seed" $order >"$work/alone" 2>&1 || fail "the extensions alone" "$work/alone"
    # shellcheck disable=SC2086
    LD_PRELOAD=$lib TILEBLAS_MODE=cpu TILEBLAS_SUMMARY=1 "$work/two" "$seed" $order >"$work/tb" 2>"$work/tb.err" ||
      fail "the extensions under tileblas (exit $?)" "$work/tb" "$work/tb.err"
    cmp -s "$work/alone" "$work/tb" || { diff "$work/alone" "$work/tb"; fail "not each extension's own BLAS's bits" "$work/tb.err"; }
    n=$(echo $exts | wc -w)
    [ "$(grep -c '^tileblas:  CPU BLAS for dgemm_\( (other callers)\)\?:' "$work/tb.err")" = "$n" ] ||
      fail "the summary does not name the $n BLAS builds beneath dgemm_" "$work/tb.err"
    # 4 calls an extension; the reference CBLAS's own call of dgemm_ inside cblas_dgemm is not one
    grep -q "^tileblas:  total: $((4 * n)) calls, 0 on the GPU, $((4 * n)) on the CPU" "$work/tb.err" ||
      fail "not $((4 * n)) calls counted" "$work/tb.err"
  done
  if [ -e "$work/ext-reference.so" ] && [ -e "$work/ext-openblas.so" ]; then
    # the test can tell the two apart: their products differ in their last bits
    [ "$(grep '^ext-reference.so .* 200:' "$work/alone" | cut -d: -f2)" != \
      "$(grep '^ext-openblas.so .* 200:' "$work/alone" | cut -d: -f2)" ] ||
      fail "the reference BLAS and OpenBLAS gave the same bits: this test cannot tell them apart" "$work/alone"
  fi
  echo "PASS: $(echo $exts | wc -w) extensions with their own BLAS builds in one process, both orders: each its own BLAS's bits"
  ran=$((ran + 1))
fi

# ---- an error handler that leaves by longjmp
$cc -O1 -o "$work/jump" "$srcdir/tests/xerbla-jump.c" $OPENBLAS_LIBS 2>"$work/cc.log" ||
  fail "building xerbla-jump" "$work/cc.log"
"$work/jump" >"$work/alone" 2>&1 || fail "xerbla-jump alone" "$work/alone"
grep -q '^handler: DGEMM *parameter 8$' "$work/alone" || fail "xerbla-jump alone: no handler call" "$work/alone"
LD_PRELOAD=$lib TILEBLAS_MODE=cpu TILEBLAS_SUMMARY=1 "$work/jump" >"$work/tb" 2>"$work/tb.err" ||
  fail "xerbla-jump under tileblas" "$work/tb" "$work/tb.err"
cmp -s "$work/alone" "$work/tb" || { diff "$work/alone" "$work/tb"; fail "xerbla-jump: not as alone"; }
grep -q '^tileblas:  total: 3 calls, 0 on the GPU, 3 on the CPU' "$work/tb.err" ||
  fail "xerbla-jump: the calls after the handler's longjmp are not the program's own calls" "$work/tb.err"
echo "PASS: after a handler's longjmp out of xerbla_, the next calls are counted and routed as before"
ran=$((ran + 1))

# ---- OpenBLAS's LAPACK calling dgemm_ through the names we export (where its build calls it so)
if readelf -rW "$libdir/libopenblas.so.0" 2>/dev/null | grep -q 'JUMP_SLOT.* dgemm_'; then
  $cc -O1 -DLAPACK -o "$work/lapack" "$srcdir/tests/process-cases.c" $OPENBLAS_LIBS 2>"$work/cc.log" ||
    fail "building process-cases (LAPACK)" "$work/cc.log"
  "$work/lapack" 300 >"$work/alone" 2>&1 || fail "dgeqrf_ alone" "$work/alone"
  LD_PRELOAD=$lib TILEBLAS_MODE=cpu TILEBLAS_SUMMARY=1 "$work/lapack" 300 >"$work/tb" 2>"$work/tb.err" ||
    fail "dgeqrf_ under tileblas" "$work/tb" "$work/tb.err"
  cmp -s "$work/alone" "$work/tb" || fail "dgeqrf_: not as alone" "$work/alone" "$work/tb"
  [ "$(gemm_calls d "$work/tb.err" | cut -d' ' -f1)" -gt 0 ] ||
    fail "OpenBLAS's LAPACK: its dgemm_ calls are not counted (passed by as if from inside a GEMM)" "$work/tb.err"
  echo "PASS: OpenBLAS's LAPACK: its $(gemm_calls d "$work/tb.err" | cut -d' ' -f1) inner dgemm_ calls routed and counted, results as alone"
  ran=$((ran + 1))
else
  echo "SKIP: OpenBLAS's LAPACK calls its GEMM directly here"
fi

# ---- tileblas loaded privately by a program linked with the reference BLAS
if [ -e "$libdir/blas/libblas.so.3" ] && [ -z "$asan" ]; then
  $cc -O1 -DLOCAL -o "$work/local" "$srcdir/tests/process-cases.c" "$libdir/blas/libblas.so.3" \
    -Wl,-rpath,"$libdir/blas" -ldl 2>"$work/cc.log" || fail "building process-cases (LOCAL)" "$work/cc.log"
  TILEBLAS_MODE=cpu "$work/local" "$builddir/.libs/libtileblas.so.0" >"$work/out" 2>&1 || fail "loaded privately" "$work/out"
  grep -q "^its own BLAS's bits$" "$work/out" || fail "loaded privately: the program's BLAS is not the one beneath" "$work/out"
  echo "PASS: loaded privately (RTLD_LOCAL) by a program linked with the reference BLAS: that BLAS's bits"
  ran=$((ran + 1))
fi

# ---- a plugin that calls dgemm_, unloaded and replaced by a rebuilt one
for v in 1 2; do
  $cc -O1 -shared -fPIC -DPLUGIN=$v -o "$work/plugin$v.so" "$srcdir/tests/process-cases.c" $OPENBLAS_LIBS \
    2>"$work/cc.log" || fail "building the plugin" "$work/cc.log"
done
$cc -O1 -DRELOAD -o "$work/reload" "$srcdir/tests/process-cases.c" -ldl 2>"$work/cc.log" ||
  fail "building process-cases (RELOAD)" "$work/cc.log"
cp "$work/plugin1.so" "$work/plugin.so" && cp "$work/plugin2.so" "$work/new.so"
LD_PRELOAD=$lib TILEBLAS_MODE=cpu "$work/reload" "$work/plugin.so" "$work/new.so" >"$work/out" 2>&1 ||
  fail "the plugin host" "$work/out"
grep -q '^versions 1 2$' "$work/out" || fail "a plugin unloaded and replaced: not the new one that ran" "$work/out"
echo "PASS: a plugin that called dgemm_, unloaded and replaced by a rebuilt one: the new one runs"
ran=$((ran + 1))

# ---- the 64_ names with no ILP64 BLAS to be found
if ldconfig -p 2>/dev/null | grep -q 'libopenblas64_\.so\.0'; then
  echo "SKIP: the 64_ names without an ILP64 BLAS (libopenblas64_.so.0 is installed)"
else
  tblib=$(cd "$builddir/.libs" && pwd)
  for h in own none; do
    def=
    [ $h = own ] && def=-DOWN_HANDLER
    $cc -O1 $def -o "$work/no64-$h" "$srcdir/tests/no-ilp64.c" -L"$tblib" -ltileblas -Wl,-rpath,"$tblib" \
      2>"$work/cc.log" || fail "building no-ilp64" "$work/cc.log"
    LD_PRELOAD=$asan TILEBLAS_MODE=cpu "$work/no64-$h" >"$work/out" 2>"$work/err" || fail "no-ilp64 ($h handler)" "$work/out" "$work/err"
    grep -q '^C untouched: -1 -1 -1 -1$' "$work/out" && grep -q '^C = 23 34 31 46$' "$work/out" ||
      fail "no-ilp64 ($h handler): results" "$work/out" "$work/err"
    if [ $h = own ]; then
      [ "$(grep '^xerbla_64_' "$work/out" | tr '\n' ' ')" = "xerbla_64_('DGEMM ', 1) xerbla_64_('DGEMM ', 3) xerbla_64_('DGEMM ', 8) xerbla_64_('DGEMM ', 0) xerbla_64_('DGEMM ', 4) " ] ||
        fail "no-ilp64: the program's xerbla_64_ not called for each invalid call" "$work/out" "$work/err"
    else
      [ "$(grep -c 'on entry to DGEMM  parameter number [0-9]* had an illegal value' "$work/err")" = 5 ] ||
        fail "no-ilp64: not every invalid call reported" "$work/err"
    fi
  done
  echo "PASS: the 64_ names without an ILP64 BLAS: each of 5 invalid calls reported (the program's xerbla_64_, else stderr)"
  ran=$((ran + 1))
fi

# ---- as another user: a set-user-ID program; an unreadable calibration file
# run as an ordinary user: as root, nobody (whose files are in a directory open to all); else oneself
pub=$(mktemp -d /tmp/tileblas-processes.XXXXXX)
trap 'rm -rf "$work" "$pub"' EXIT
chmod 755 "$pub"
as_user() {
  if [ "$(id -u)" = 0 ]; then setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"; else "$@"; fi
}
if [ -n "$asan" ]; then
  echo "SKIP: another user's runs in the sanitizer build (ASan must be preloaded, which secure mode refuses)"
elif [ "$(id -u)" = 0 ] && ! command -v setpriv >/dev/null; then
  echo "SKIP: another user's runs (no setpriv)"
else
  cp "$builddir/.libs/libtileblas.so.0" "$pub/"
  $cc -O1 -o "$pub/demo" "$srcdir/tests/setuid-demo.c" -L"$pub" -l:libtileblas.so.0 -Wl,-rpath,"$pub" \
    2>"$work/cc.log" || fail "building setuid-demo" "$work/cc.log"
  printf '%s\n' '#include <stddef.h>' '#include <stdio.h>' \
    'void dgemm_(void) { puts("a library named by TILEBLAS_CPU_BLAS ran"); }' >"$work/evil.c"
  $cc -shared -fPIC -o "$pub/evil.so" "$work/evil.c" 2>"$work/cc.log" || fail "building evil.so" "$work/cc.log"
  echo 'gpu_call oops' >"$pub/secret" && chmod 600 "$pub/secret"
  chmod 755 "$pub"/*.so* "$pub/demo"
  # unreadable where the user's calibration goes: skipped silently, said when asked
  mkdir -p "$pub/home/.config/tileblas" && echo 'gpu_call 1e-5' >"$pub/home/.config/tileblas/calibration"
  chmod 755 "$pub/home" "$pub/home/.config" "$pub/home/.config/tileblas"
  chmod 000 "$pub/home/.config/tileblas/calibration"
  (cd "$pub" && HOME=$pub/home XDG_CONFIG_HOME= TILEBLAS_SUMMARY=1 as_user ./demo) >"$work/out" 2>"$work/err" ||
    fail "demo as another user" "$work/out" "$work/err"
  if [ -r "$pub/home/.config/tileblas/calibration" ] && [ "$(id -u)" != 0 ]; then
    echo "SKIP: an unreadable calibration (this user reads mode 000 files)"
  else
    ! grep -q "$pub/home" "$work/err" && grep -q '^tileblas:  cost model of auto mode: built-in' "$work/err" ||
      fail "an unreadable calibration file is not skipped silently" "$work/err"
    (cd "$pub" && HOME=$pub/home XDG_CONFIG_HOME= TILEBLAS_VERBOSE=1 as_user ./demo) >"$work/out" 2>"$work/err"
    grep -q "calibration file $pub/home/.config/tileblas/calibration skipped (Permission denied)" "$work/err" ||
      fail "TILEBLAS_VERBOSE=1 does not say why the calibration file was skipped" "$work/err"
    echo "PASS: an unreadable calibration file in the user's place: skipped silently (said with TILEBLAS_VERBOSE=1)"
    ran=$((ran + 1))
  fi
  # the variables naming files are honoured in an ordinary program (the check below can fail) ...
  (cd "$pub" && TILEBLAS_CPU_BLAS=$pub/evil.so TILEBLAS_MODE=cpu as_user ./demo) >"$work/out" 2>"$work/err"
  grep -q 'TILEBLAS_CPU_BLAS ran' "$work/out" || fail "TILEBLAS_CPU_BLAS not honoured in an ordinary program" "$work/out" "$work/err"
  if [ "$(id -u)" != 0 ]; then
    echo "SKIP: a set-user-ID program (needs root to make one)"
  else
    cp "$pub/demo" "$pub/suid" && chmod 4755 "$pub/suid"
    (cd "$pub" && TILEBLAS_CPU_BLAS=$pub/evil.so TILEBLAS_CALIBRATION=$pub/secret TILEBLAS_MODE=cpu as_user ./suid) \
      >"$work/out" 2>"$work/err" || fail "the set-user-ID program" "$work/out" "$work/err"
    if ! grep -q '^secure 1$' "$work/out"; then
      echo "SKIP: a set-user-ID program (it does not run in secure mode here: $(head -n 1 "$work/out"))"
    else
      grep -q '^C = 23 34 31 46$' "$work/out" && [ ! -s "$work/err" ] ||
        fail "set-user-ID: the variables naming files were not ignored silently" "$work/out" "$work/err"
      echo "PASS: a set-user-ID program ignores TILEBLAS_CPU_BLAS and TILEBLAS_CALIBRATION, and says nothing of them"
      ran=$((ran + 1))
    fi
  fi
fi
[ $ran -gt 0 ] || { echo "SKIP: nothing could run here"; exit 77; }
echo "PASS: $ran parts"
