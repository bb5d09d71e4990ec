# where numpy's float64 8192^2 a @ b spends its time under tileblas: fresh result vs out= (C reused), the cost of
# a fresh 512 MiB array's first touch and of freeing one, with numpy's huge-page advice on and off, and operands
# themselves allocated without that advice (as R's and most C programs' are)
import sys, time
import numpy as np
n = int(sys.argv[1]) if len(sys.argv) > 1 else 8192
rng = np.random.default_rng(12345)
a = rng.uniform(-1, 1, (n, n)); b = rng.uniform(-1, 1, (n, n))
def med(f, r=5):
    ts = []
    for _ in range(r):
        t0 = time.perf_counter(); f(); ts.append(time.perf_counter() - t0)
    ts.sort(); return ts[r // 2], ts
c = a @ b
out = np.empty((n, n))
np.matmul(a, b, out=out)
def fresh():
    global c
    c = a @ b
def reuse():
    np.matmul(a, b, out=out)
def touch():
    x = np.empty((n, n)); x.fill(1.0)
def fresh_ops():
    global c
    c = a2 @ b2
for hp in (True, False):
    core = np._core if hasattr(np, "_core") else np.core
    core.multiarray._set_madvise_hugepage(hp)
    a2 = a.copy(); b2 = b.copy() # allocated under this advice
    for name, f in (("fresh c = a @ b", fresh), ("out= reused", reuse), ("np.empty + fill (1 thread)", touch),
                    ("fresh c, operands allocated so", fresh_ops)):
        m, ts = med(f)
        print("hugepage %-5s %-28s %.4f s  (%s)" % (hp, name, m, ", ".join("%.4f" % t for t in ts)))
print("max |fresh - out=|", float(np.max(np.abs(c - out))))
