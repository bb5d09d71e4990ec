"""Products through scipy's own BLAS names (scipy.linalg.blas: scipy_sgemm_, scipy_dgemm_, scipy_cgemm_ and
scipy_zgemm_ of the scipy-openblas library of scipy's wheels, 32-bit integers), or scipy.linalg.expm, whose
products call scipy_dgemm_ through the symbol table (tests/scipy.sh runs it with and without tileblas preloaded).

    scipy_check.py SEED [float32|float64|complex64|complex128|expm]

Each product alpha op(A) op(B) + beta C is checked against one in higher precision (float64 or complex128 for the
single-precision types, long double for the double ones: on every row, or on 16 rows drawn at random for the
largest products) within the bound of doc/TESTING.md (tests/numpy_check.py), with |alpha| |A| |B| + |beta| |C| in
place of |A| |B|.  The last line gives how many products were asked of the BLAS
(expm: 0, its count is scipy's), the rank-k and rank-2k updates (?syrk, ?syr2k, and ?herk, ?her2k for the complex
types: one triangle of C checked, the other unchanged) and a digest of every result's bytes.
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
# the rank-k and rank-2k updates: alpha op(A) op(A)^T (^H: HERK, real alpha and beta) + beta C, and alpha op(A)
# op(B)^T + alpha op(B) op(A)^T (HER2K: ^H and conj(alpha), beta real) + beta C, on one triangle; the other triangle
# as it was, HERK's and HER2K's diagonal real
names = ("syrk", "herk", "syr2k", "her2k") if dtype.kind == "c" else ("syrk", "syr2k")
updates = dict.fromkeys(("syrk", "herk", "syr2k", "her2k"), 0)
for name in names:
    update = getattr(blas, {"float32": "s", "float64": "d", "complex64": "c", "complex128": "z"}[what] + name)
    herk, two = name.startswith("her"), name.endswith("2k")
    for n, k in [(64, 64), (300, 200), (1000, 700)]:
        for trans in (0, 2 if herk else 1):
            for lower in (0, 1):
                a = rand(*((n, k) if trans == 0 else (k, n)))
                b = rand(*a.shape)
                c0 = np.asfortranarray(rand(n, n))
                alpha, beta = (1.5, -0.75) if dtype.kind != "c" else (0.5 - 1j, 0.25 + 0.5j)
                if herk:
                    alpha, beta = (alpha if two else 1.5), -0.75
                args = (alpha, a, b) if two else (alpha, a)
                c = update(*args, beta=beta, c=c0.copy(order="F"), trans=trans, lower=lower)
                opa, opb = (x.astype(wide) if trans == 0 else op(x.astype(wide), trans) for x in (a, b))
                t = (lambda x: x.conj().T) if herk else (lambda x: x.T)
                rows = np.arange(n)
                if n > 64:  # the reference in long double is slow: a sample of rows
                    rows = np.sort(rng.choice(n, 16, replace=False))
                alpha2 = np.conj(alpha) if herk else alpha
                prod = wide(alpha) * (opa[rows] @ t(opb)) + wide(alpha2) * (opb[rows] @ t(opa)) if two else \
                    wide(alpha) * (opa[rows] @ t(opa))
                mag = np.abs(opa[rows]) @ np.abs(t(opb)) + np.abs(opb[rows]) @ np.abs(t(opa)) if two else \
                    np.abs(opa[rows]) @ np.abs(t(opa))
                want = prod + wide(beta) * c0.astype(wide)[rows]
                cterm = abs(beta) * np.abs(c0.astype(wide)[rows])
                bound = bound_factor(dtype, 2 * k if two else k) * u * (abs(alpha) * mag + cterm) + 1e-300
                if herk:  # the diagonal: beta's times C's real part, C's imaginary part not read
                    on = rows[:, None] == np.arange(n)
                    want[on] = prod[on] + wide(beta) * c0.astype(wide)[rows][on].real
                mine = (rows[:, None] >= np.arange(n)) if lower else (rows[:, None] <= np.arange(n))
                err = np.where(mine, np.abs(c[rows].astype(wide) - want), 0)
                if not np.all(err <= bound) or not np.array_equal(c[rows][~mine], c0[rows][~mine]):
                    sys.exit(f"FAIL: {what} {name} n {n} k {k} trans {trans} lower {lower}")
                if herk and np.any(np.diagonal(c).imag != 0):
                    sys.exit(f"FAIL: {what} {name} n {n} k {k}: the diagonal is not real")
                worst = max(worst, float((err / bound).max()))
                digest.update(np.ascontiguousarray(c).tobytes())
                updates[name] += 1
# the products with a symmetric (HEMM: Hermitian) A, stored in one triangle, the other NaN (HEMM: and its diagonal's
# imaginary parts): C = alpha A B + beta C (side 0) or alpha B A + beta C (side 1)
for name in ("symm", "hemm") if dtype.kind == "c" else ("symm",):
    product = getattr(blas, {"float32": "s", "float64": "d", "complex64": "c", "complex128": "z"}[what] + name)
    herm = name == "hemm"
    for m, n in [(64, 48), (300, 200), (700, 500)]:
        for side in (0, 1):
            for lower in (0, 1):
                na = n if side else m
                full = rand(na, na)
                full = np.tril(full) + np.tril(full, -1).T if not herm else np.tril(full) + np.tril(full, -1).conj().T
                if herm:
                    full[np.diag_indices(na)] = full.diagonal().real
                a = (full if lower else full.T.conj() if herm else full.T).copy(order="F")
                a[np.triu_indices(na, 1) if lower else np.tril_indices(na, -1)] = np.nan
                if herm:
                    a[np.diag_indices(na)] = a.diagonal().real + complex(0, np.nan)  # (1j * nan is nan + nanj)
                b = rand(m, n)
                c0 = np.asfortranarray(rand(m, n))
                alpha, beta = (0.5 - 1j, 0.25 + 0.5j) if dtype.kind == "c" else (1.5, -0.75)
                c = product(alpha, a, b, beta=beta, c=c0.copy(order="F"), side=side, lower=lower)
                rows = np.sort(rng.choice(m, 16, replace=False))
                fw, bw = full.astype(wide), b.astype(wide)
                prod = fw[rows] @ bw if side == 0 else bw[rows] @ fw
                mag = np.abs(fw[rows]) @ np.abs(bw) if side == 0 else np.abs(bw[rows]) @ np.abs(fw)
                want = wide(alpha) * prod + wide(beta) * c0.astype(wide)[rows]
                bound = bound_factor(dtype, na) * u * (abs(alpha) * mag + abs(beta) * np.abs(c0.astype(wide)[rows])) \
                    + 1e-300
                err = np.abs(c[rows].astype(wide) - want)
                if not np.all(err <= bound):
                    sys.exit(f"FAIL: {what} {name} m {m} n {n} side {side} lower {lower}")
                worst = max(worst, float((err / bound).max()))
                digest.update(np.ascontiguousarray(c).tobytes())
                updates[name] = updates.get(name, 0) + 1
print(f"products {products} syrk {updates['syrk']} herk {updates['herk']} syr2k {updates['syr2k']} her2k "
      f"{updates['her2k']} symm {updates.get('symm', 0)} hemm {updates.get('hemm', 0)} worst {worst:.3f} of the bound "
      f"digest {digest.hexdigest()[:16]}")
