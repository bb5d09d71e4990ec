"""Products through scipy's own BLAS names (scipy.linalg.blas: scipy_sgemm_, scipy_dgemm_, scipy_cgemm_ and
scipy_zgemm_ of the scipy-openblas library of scipy's wheels, 32-bit integers), or scipy.linalg.expm, whose
products call scipy_dgemm_ through the symbol table (tests/scipy.sh runs it with and without tileblas preloaded).

    scipy_check.py SEED [float32|float64|complex64|complex128|expm]

Each product alpha op(A) op(B) + beta C is checked against one in higher precision (float64 or complex128 for the
single-precision types, long double for the double ones: on every row, or on 16 rows drawn at random for the
largest products) within the bound of doc/TESTING.md (tests/numpy_check.py), with |alpha| |A| |B| + |beta| |C| in
place of |A| |B|.  The last line gives how many products were asked of the BLAS
(expm: 0, its count is scipy's) and a digest of every result's bytes.
"""
import hashlib
import sys

import numpy as np
from precision import bound_factor, precision
import scipy.linalg
import scipy.linalg.blas as blas

seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
what = sys.argv[2] if len(sys.argv) > 2 else "float64"
rng = np.random.default_rng(seed)
digest = hashlib.sha256()
if what == "expm":
    for n in (64, 300):
        x = rng.standard_normal((n, n)) / np.sqrt(n)
        digest.update(scipy.linalg.expm(x).tobytes())
    print(f"products 0 digest {digest.hexdigest()[:16]}")
    sys.exit(0)

dtype = np.dtype(what)
single, wide, u = precision(dtype)
gemm = {"float32": blas.sgemm, "float64": blas.dgemm, "complex64": blas.cgemm, "complex128": blas.zgemm}[what]
products = 0
worst = 0.0


def rand(*shape):
    if dtype.kind == "c":
        real = np.float32 if single else np.float64
        return (rng.standard_normal(shape, dtype=real) + 1j * rng.standard_normal(shape, dtype=real)).astype(dtype)
    return rng.standard_normal(shape, dtype=dtype)


def op(x, t):
    return x if t == 0 else x.T if t == 1 else x.conj().T


for m, n, k in [(64, 64, 64), (300, 200, 100), (257, 129, 511), (1000, 1000, 1000), (64, 2000, 64)]:
    for ta, tb in [(0, 0), (1, 0), (0, 1), (2 if dtype.kind == "c" else 1, 1)]:
        a = rand(*((m, k) if ta == 0 else (k, m)))
        b = rand(*((k, n) if tb == 0 else (n, k)))
        c0 = np.asfortranarray(rand(m, n))
        alpha, beta = (0.5 - 1j, 0.25 + 0.5j) if dtype.kind == "c" else (1.5, -0.75)
        c = gemm(alpha, a, b, beta, c0.copy(order="F"), trans_a=ta, trans_b=tb)
        rows = np.arange(m)
        if m * n * k > 3e7:  # the reference in long double is slow: a sample of rows
            rows = np.sort(rng.choice(m, 16, replace=False))
        aw, bw, cw = op(a.astype(wide), ta)[rows], op(b.astype(wide), tb), c0.astype(wide)[rows]
        want = wide(alpha) * (aw @ bw) + wide(beta) * cw
        factor = bound_factor(dtype, k)
        bound = factor * u * (abs(alpha) * (np.abs(aw) @ np.abs(bw)) + abs(beta) * np.abs(cw)) + 1e-300
        err = np.abs(c[rows].astype(wide) - want)
        if not np.all(err <= bound):
            i = np.unravel_index(np.argmax(err - bound), err.shape)
            sys.exit(f"FAIL: {what} {m}x{n}x{k} ops {ta}{tb}: C{(rows[i[0]], i[1])} = {c[rows[i[0]], i[1]]!r}, "
                     f"want {want[i]!r}")
        worst = max(worst, float((err / bound).max()))
        digest.update(np.ascontiguousarray(c).tobytes())
        products += 1
print(f"products {products} worst {worst:.3f} of the bound digest {digest.hexdigest()[:16]}")
