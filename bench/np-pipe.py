# n^2 products under tileblas (TILEBLAS_VERBOSE=1 adds where the host time went), float64 unless a type is named:
# into an array written before (out=) and into a fresh one (c = a @ b), median of 5 after a warm-up; usage:
# np-pipe.py [--f32 | --dtype float32|float64|complex64|complex128] N [N ...]
# (complex: both parts uniform in (-1, 1), 8 flops a multiply-add)
import sys, time
import numpy as np
rng = np.random.default_rng(777)
args = sys.argv[1:]
dt = np.float64
if args[:1] == ["--f32"]:
    dt, args = np.float32, args[1:]
elif args[:1] == ["--dtype"]:
    dt, args = np.dtype(args[1]).type, args[2:]
cplx = np.issubdtype(dt, np.complexfloating)
flops = 8 if cplx else 2

def matrix(n):
    x = rng.uniform(-1, 1, (n, n))
    if cplx:
        x = x + 1j * rng.uniform(-1, 1, (n, n))
    return x.astype(dt)

for n in [int(x) for x in args]:
    a = matrix(n); b = matrix(n)
    out = np.empty((n, n), dtype=dt); out.fill(0.5)
    np.matmul(a, b, out=out)
    for name in ("out=", "fresh"):
        ts = []
        for _ in range(5):
            t0 = time.perf_counter()
            if name == "out=": np.matmul(a, b, out=out)
            else: c = a @ b
            ts.append(time.perf_counter() - t0)
            sys.stderr.flush()
        ts.sort()
        print("PY %s n=%d %-6s median %.4f s = %.3g TFLOP/s (%s)" % (np.dtype(dt).name, n, name, ts[2], flops * 1e-12 * n**3 / ts[2], " ".join("%.4f" % t for t in ts)), flush=True)
    del a, b, out
