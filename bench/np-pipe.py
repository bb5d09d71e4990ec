# float64 (or, with --f32, float32) n^2 products under tileblas (TILEBLAS_VERBOSE=1 adds where the host time went):
# into an array written before (out=) and into a fresh one (c = a @ b), median of 5 after a warm-up; usage:
# np-pipe.py [--f32] N [N ...]
import sys, time
import numpy as np
rng = np.random.default_rng(777)
args = sys.argv[1:]
dt = np.float32 if args[:1] == ["--f32"] else np.float64
for n in [int(x) for x in args if x != "--f32"]:
    a = rng.uniform(-1, 1, (n, n)).astype(dt); b = rng.uniform(-1, 1, (n, n)).astype(dt)
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
        print("PY n=%d %-6s median %.4f s = %.1f TFLOP/s (%s)" % (n, name, ts[2], 2e-12 * n**3 / ts[2], " ".join("%.4f" % t for t in ts)), flush=True)
    del a, b, out
