# numpy float64 8192^2 product: seconds of the median of 3 after a warm-up, and the result's error against
# a product computed in blocks with Python's own float64 sums (sampled rows)
import sys, time
import numpy as np
n = int(sys.argv[1]) if len(sys.argv) > 1 else 8192
rng = np.random.default_rng(12345)
a = rng.uniform(-1, 1, (n, n)); b = rng.uniform(-1, 1, (n, n))
c = a @ b
ts = []
for _ in range(3):
    t0 = time.perf_counter(); c = a @ b; ts.append(time.perf_counter() - t0)
ts.sort()
rows = rng.integers(0, n, 8)
ref = np.array([[np.dot(a[r].astype(np.longdouble), b[:, j].astype(np.longdouble)) for j in range(0, n, 97)] for r in rows])
got = c[rows][:, ::97]
mag = np.abs(a[rows]) @ np.abs(b[:, ::97])
ratio = np.max(np.abs(got - ref) / (2 * (n + 2) * 2.0**-53 * mag))
print("numpy %s float64 %d^2 @: %.4f s (median of 3; %s), worst error %.4f of the bound" % (np.__version__, n, ts[1], ", ".join("%.4f" % t for t in ts), ratio))
