"""Conversions between Python numbers and dpref's exact number texts (spec/python.md PY.NUMBERS).

Inputs: every real is handed to C++ as decimal text and converted ONCE at the target precision
(ARCH.NUMBERS): ``str`` is used as written, ``int`` exactly, ``float`` by its shortest
round-trip text (``repr``: 0.1 means the decimal 0.1, as on the command line), and binary
multiprecision values (``mpmath.mpf``, ``numpy.longdouble``) by the exact decimal expansion of
their binary value. Outputs of the multiprecision precisions are ``mpmath.mpf`` built from the
exact (mantissa, exponent) of the C++ value, so they equal the C++ results bit for bit.
"""
from __future__ import annotations

import decimal
import fractions
import importlib
import numbers
import os

__all__ = ["real_text", "rational_text", "mpf_from_parts", "exact_text", "jsonable"]


def _optional(name: str):
    """The module ``name`` (numpy, mpmath), or None when it is not installed."""
    try:
        return importlib.import_module(name)
    except ImportError:  # pragma: no cover
        return None


def _as_written(x, what: str, kind: str):
    """Text of an input that needs no conversion: ``str`` as written, ``int`` exactly; None for
    any other type. A ``bool`` is refused (it is an ``int`` to Python, never a number here)."""
    if isinstance(x, str):
        return x
    if isinstance(x, bool):
        raise TypeError(f"{what} must be {kind}, got a bool")
    if isinstance(x, numbers.Integral):
        return str(int(x))
    return None


def _exact_decimal(man: int, exp: int) -> str:
    """Exact decimal text of man * 2**exp."""
    neg = man < 0
    man = abs(man)
    if exp >= 0:
        s = str(man << exp)
    else:
        digits = str(man * 5 ** (-exp))
        k = -exp  # digits after the point
        if len(digits) <= k:
            digits = "0" * (k - len(digits) + 1) + digits
        s = digits[:-k] + "." + digits[-k:]
        s = s.rstrip("0").rstrip(".")
    return ("-" if neg else "") + s


def exact_text(x) -> str:
    """Exact decimal text of a binary floating-point value (float, numpy float, mpmath.mpf)."""
    mpmath = _optional("mpmath")  # a dependency of the multiprecision path
    if mpmath is not None and isinstance(x, mpmath.mpf):
        if not mpmath.isfinite(x):
            raise ValueError(f"a finite number is needed, got {x}")
        sign, man, exp, _ = x._mpf_
        return _exact_decimal(-man if sign else man, exp)
    num, den = x.as_integer_ratio()
    exp = 0
    while den > 1:
        den //= 2
        exp -= 1
    return _exact_decimal(num, exp)


def real_text(x, what: str = "value") -> str:
    """Decimal text of a real input (see the module docstring)."""
    text = _as_written(x, what, "a real number")
    if text is not None:
        return text
    np = _optional("numpy")
    if (np is not None and isinstance(x, np.floating)
            and not isinstance(x, (np.float64, np.float32, np.float16))):
        return exact_text(x)  # numpy.longdouble: its exact binary value
    if isinstance(x, float):
        return repr(float(x))
    mpmath = _optional("mpmath")
    if mpmath is not None and isinstance(x, mpmath.mpf):
        return exact_text(x)
    if isinstance(x, decimal.Decimal):
        return str(x)
    if isinstance(x, numbers.Real) and not isinstance(x, fractions.Fraction):
        return repr(float(x))
    raise TypeError(f"{what} must be a real number or a decimal string, got {type(x).__name__}")


def rational_text(x, what: str = "value") -> str:
    """"p/q" text of a rational input (int, Fraction, "p/q" or (p, q))."""
    text = _as_written(x, what, "a rational number")
    if text is not None:
        return text
    if isinstance(x, fractions.Fraction):
        return f"{x.numerator}/{x.denominator}"
    if isinstance(x, tuple) and len(x) == 2:
        return f"{int(x[0])}/{int(x[1])}"
    raise TypeError(f"{what} must be an int, a Fraction, (p, q) or 'p/q', got {type(x).__name__}")


def mpf_from_parts(parts, bits: int):
    """mpmath.mpf equal to the C++ value given as (text, negative, mantissa hex, exponent)."""
    import mpmath

    _, negative, mantissa, exponent = parts
    man = int(mantissa, 16)
    with mpmath.workprec(max(bits, man.bit_length(), 53)):
        return mpmath.mpf((-man if negative else man, exponent))


def jsonable(x):
    """json.dumps default= hook: numpy scalars and arrays, mpmath.mpf (exact text), paths."""
    np = _optional("numpy")
    if np is not None:
        if isinstance(x, np.integer):
            return int(x)
        if isinstance(x, np.bool_):
            return bool(x)
        if isinstance(x, np.floating):
            return float(x) if isinstance(x, np.float64) else exact_text(x)
        if isinstance(x, np.ndarray):
            return x.tolist()
    mpmath = _optional("mpmath")
    if mpmath is not None and isinstance(x, mpmath.mpf):
        return exact_text(x)
    if isinstance(x, fractions.Fraction):
        return f"{x.numerator}/{x.denominator}"
    if isinstance(x, os.PathLike):
        return os.fspath(x)
    raise TypeError(f"cannot write {type(x).__name__} as JSON")
