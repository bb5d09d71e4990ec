"""float32, float64, complex64 or complex128 products through numpy's BLAS (tests/numpy.sh runs it with and
without tileblas preloaded).

    numpy_check.py SEED [float32|float64|complex64|complex128]

Each product is checked against a product in higher precision (float64 or complex128 for the single-precision
types, long double for the double ones: on every row, or on 16 rows drawn at random for the largest products)
within the bound of doc/TESTING.md, 2 (k + 2) u (|A| |B|)_ij with u = 2^-24 or 2^-53; for the complex types
2 sqrt(2) (2k + 2) u (|A| |B|)_ij with moduli (each part of a complex multiply-add is a real sum of 2k products,
none larger than |a| |b|).  a @ a.T and a.T @ a are numpy's rank-k updates (one ?syrk each, the other triangle
copied by numpy).  The last line gives how many products and rank-k updates numpy handed to its BLAS and a digest of
every result's bytes (equal to the run without tileblas on the CPU path, where the results are OpenBLAS's own).
"""
import hashlib
import sys

import numpy as np
from precision import bound_factor, precision

seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
dtype = np.dtype(sys.argv[2] if len(sys.argv) > 2 else "float32")
single, wide, u = precision(dtype)
rng = np.random.default_rng(seed)
digest = hashlib.sha256()
products = 0
syrks = 0
worst = 0.0


def check(c, a, b):
    """c = a @ b within the bound; remember its bytes"""
    global products, worst
    rows = np.arange(a.shape[0])
    if a.shape[0] * a.shape[1] * b.shape[1] > 3e7:  # the reference in long double is slow: a sample of rows
        rows = np.sort(rng.choice(a.shape[0], 16, replace=False))
    aw, bw = a[rows].astype(wide), b.astype(wide)
    want = aw @ bw
    k = a.shape[-1]
    factor = bound_factor(dtype, k)
    bound = factor * u * (np.abs(aw) @ np.abs(bw))
    got = c[rows].astype(wide)
    err = np.abs(got - want)
    if not np.all(err <= bound):
        i = np.unravel_index(np.argmax(err - bound), err.shape)
        sys.exit(f"FAIL: {a.shape} @ {b.shape}: C{i} = {got[i]!r}, want {want[i]!r} (bound {float(bound[i]):.3g})")
    worst = max(worst, float((err / (bound + 1e-300)).max()))
    digest.update(np.ascontiguousarray(c).tobytes())
    products += 1


def rand(*shape):
    if dtype.kind == "c":
        real = np.float32 if single else np.float64
        return (rng.standard_normal(shape, dtype=real) + 1j * rng.standard_normal(shape, dtype=real)).astype(dtype)
    return rng.standard_normal(shape, dtype=dtype)


for m, n, k in [(64, 64, 64), (300, 200, 100), (257, 129, 511), (1000, 1000, 1000), (64, 2000, 64)]:
    a, b = rand(m, k), rand(k, n)
    check(a @ b, a, b)                       # C-ordered: one cblas_sgemm, row-major
    check(np.dot(a, b), a, b)
    at, bt = np.asfortranarray(a), np.asfortranarray(b)
    check(at @ bt, a, b)                     # Fortran-ordered operands: the transposed layout
    x = rand(k, m)
    check(x.T @ b, x.T, b)                   # a transposed view
stack_a, stack_b = rand(4, 96, 80), rand(4, 80, 112)
c = np.matmul(stack_a, stack_b)              # a stack: one call per matrix
for i in range(4):
    check(c[i], stack_a[i], stack_b[i])
for n, k in [(64, 64), (300, 200), (513, 100), (1000, 700), (6000, 48)]:
    a = rand(n, k)
    check(a @ a.T, a, a.T)                   # one ?syrk: C-ordered, row-major
    check(a.T @ a, a.T, a)
    syrks += 2
    products -= 2
print(f"products {products} syrk {syrks} worst {worst:.3f} of the bound digest {digest.hexdigest()[:16]}")
