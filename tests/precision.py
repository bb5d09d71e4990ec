"""What tests/numpy_check.py and tests/scipy_check.py share: a type's reference precision and its bound (doc/TESTING.md)."""
import numpy as np


def precision(dtype):
    """(single, wide, u): whether dtype is single precision, the type its products are checked in (float64 or
    complex128 for the single types, long double for the double ones) and its unit roundoff"""
    single = dtype in (np.float32, np.complex64)
    if dtype.kind == "c":
        wide = np.complex128 if single else np.clongdouble
    else:
        wide = np.float64 if single else np.longdouble
    return single, wide, 2.0**-24 if single else 2.0**-53


def bound_factor(dtype, k):
    """the bound's factor for depth k: 2 (k + 2), or 2 sqrt(2) (2k + 2) for the complex types"""
    return 2.0 * np.sqrt(2.0) * (2 * k + 2) if dtype.kind == "c" else 2.0 * (k + 2)
