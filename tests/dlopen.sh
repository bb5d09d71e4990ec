#!/bin/sh
# Loaded after start-up, as python's ctypes, plugin hosts and FlexiBLAS load a BLAS, the library works: python3
# loads it with ctypes.CDLL and its sgemm_ gives the right product in CPU, auto and GPU mode.  Where the machine
# has an NVIDIA device (/dev/nvidia0), the GPU must be usable from the loaded library and take the GPU-mode call.
. "${top_srcdir:-.}/tests/preamble.sh"
[ -z "$asan" ] || { echo "SKIP: the sanitizer build (its library needs ASan preloaded)"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
so=$builddir/.libs/libtileblas.so.0
# no STATIC_TLS mark: a library loaded after start-up that needs static TLS takes from a small surplus that two such
# libraries can exhaust
if command -v readelf >/dev/null; then
  readelf -d "$so" >"$work/dynamic" || fail "readelf -d $so"
  ! grep -q 'STATIC_TLS' "$work/dynamic" || fail "the library is marked STATIC_TLS" "$work/dynamic"
  echo "PASS: the library needs no static TLS"
fi
want_gpu=0
[ -e /dev/nvidia0 ] && want_gpu=1
for mode in cpu auto gpu; do
  TILEBLAS_MODE=$mode WANT_GPU=$want_gpu python3 - "$so" >"$work/$mode.out" 2>"$work/$mode.err" <<'PY'
import ctypes, os, random, sys
lib = ctypes.CDLL(sys.argv[1])  # before the fix: OSError, cannot allocate memory in static TLS block
why = ctypes.c_char_p()
gpu = lib.tileblas_gpu_available(ctypes.byref(why))
mode = os.environ['TILEBLAS_MODE']
print('gpu available: %d (%s)' % (gpu, why.value.decode() if not gpu and why.value else 'yes'))
if os.environ['WANT_GPU'] == '1' and not gpu:
    sys.exit('a GPU is present but the loaded library cannot use it: %s' % why.value.decode())
seed = int(os.environ.get('TILEBLAS_TEST_SEED', random.randrange(1 << 30)))
print('seed %d' % seed)
rng = random.Random(seed)
m, n, k = 67, 45, 93
F = ctypes.c_float
a = (F * (m * k))(*[rng.uniform(-1, 1) for _ in range(m * k)])
b = (F * (k * n))(*[rng.uniform(-1, 1) for _ in range(k * n)])
c0 = [rng.uniform(-1, 1) for _ in range(m * n)]
c = (F * (m * n))(*c0)
I = ctypes.c_int
lib.sgemm_(ctypes.c_char_p(b'N'), ctypes.c_char_p(b'N'), ctypes.byref(I(m)), ctypes.byref(I(n)), ctypes.byref(I(k)),
           ctypes.byref(F(0.5)), a, ctypes.byref(I(m)), b, ctypes.byref(I(k)), ctypes.byref(F(-2.0)), c,
           ctypes.byref(I(m)), ctypes.c_size_t(1), ctypes.c_size_t(1))
worst = 0.0
for j in range(n):
    for i in range(m):
        s = sum(float(a[i + p * m]) * float(b[p + j * k]) for p in range(k))
        bound = 0.5 * sum(abs(float(a[i + p * m]) * float(b[p + j * k])) for p in range(k)) + 2 * abs(c0[i + j * m])
        ref = 0.5 * s - 2.0 * float(F(c0[i + j * m]).value)
        worst = max(worst, abs(c[i + j * m] - ref) / (bound * (k + 2) * 2 ** -23))  # doc/TESTING.md
print('worst error: %.3f of the bound' % worst)
if worst > 1.0:
    sys.exit('wrong product')
class Info(ctypes.Structure):
    _fields_ = [('path', ctypes.c_int), ('kernel', ctypes.c_char_p), ('gpu_failed', ctypes.c_int)]
info = Info()
lib.tileblas_last_call(ctypes.byref(info))
print('path %d kernel %s' % (info.path, info.kernel))
if mode == 'gpu' and gpu and info.path != 2:
    sys.exit('GPU mode with a usable GPU, but the call ran on the CPU')
if mode == 'cpu' and info.path != 1:
    sys.exit('CPU mode, but the call did not run on the CPU')
PY
  [ $? = 0 ] || fail "python3 ctypes, TILEBLAS_MODE=$mode" "$work/$mode.out" "$work/$mode.err"
  echo "PASS: loaded by python3 ctypes, TILEBLAS_MODE=$mode: $(tr '\n' ';' <"$work/$mode.out")"
done
