"""Exact projections of dpref's geometry layer (include/dpref/geometry)."""
from __future__ import annotations

from typing import Sequence

from . import _core
from ._numbers import mpf_from_parts, real_text

__all__ = ["project_capped_simplex"]


def project_capped_simplex(x0: Sequence, a: Sequence, b, *, precision: str = "double"):
    """Exact Euclidean projection of ``x0`` onto {x : 0 <= x <= a, sum(x) = b}.

    Returns ``(x, nu)`` with x_i = clip(x0_i - nu, 0, a_i) (the KKT multiplier nu). ``x`` is a
    float64 (long double) array at double (long-double) precision and an object array of
    mpmath.mpf at mp50 / mpfr:DIGITS. Inputs are reals or decimal strings converted once at the
    precision. Raises ValueError (C++ message) for mismatched sizes, a < 0 or b outside
    [0, sum(a)].
    """
    import numpy as np

    r_x, r_nu = _core.project_capped_simplex([real_text(v, "x0") for v in x0],
                                             [real_text(v, "a") for v in a],
                                             real_text(b, "b"), precision)
    if isinstance(r_x, np.ndarray):
        return r_x, r_nu
    bits = _core.bits(precision)
    x = np.empty(len(r_x), dtype=object)
    for i, v in enumerate(r_x):
        x[i] = mpf_from_parts(v, bits)
    return x, mpf_from_parts(r_nu, bits)
