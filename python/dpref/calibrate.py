"""Noise calibrators and privacy functions of dpref::accounting (certified: a returned noise
scale, epsilon or delta is never below the exact value; spec/accounting.md ACC.CERT.UP).

Every function takes ``precision="double"`` (float result), ``"long-double"``
(numpy.longdouble), ``"mp50"`` or ``"mpfr:DIGITS"`` (mpmath.mpf equal to the C++ value). Reals
may be decimal strings, converted once at the precision. Invalid arguments raise ValueError
with the C++ message (e.g. ``gaussian_sigma_classical: eps must be < 1, got 1.5``).
"""
from __future__ import annotations

from . import _core
from ._numbers import mpf_from_parts, rational_text, real_text

__all__ = ["calibrate", "functions", "laplace_scale", "gaussian_sigma", "gaussian_sigma_classical",
           "gaussian_epsilon", "gaussian_delta", "laplace_epsilon", "vector_laplace_epsilon",
           "exponential_epsilon", "discrete_laplace_epsilon", "discrete_gaussian_delta"]


def functions() -> dict:
    """``{name: (argument names, C++ function and formula)}`` of :func:`calibrate`."""
    return {name: (list(args), what) for name, args, what in _core.calibrators()}


def _value(r, precision):
    if isinstance(r, tuple):
        return mpf_from_parts(r, _core.bits(precision))
    return r


def calibrate(name: str, precision: str = "double", **args):
    """Calls calibrator ``name`` (see :func:`functions`) with named arguments."""
    text = {}
    for k, v in args.items():
        if k in ("t_num", "t_den", "var_num", "var_den"):
            text[k] = str(int(v))
        elif k == "monotone":
            text[k] = v if isinstance(v, str) else ("true" if v else "false")
        elif name == "discrete_gaussian_delta" and k == "sensitivity":
            text[k] = str(int(v))
        else:
            text[k] = real_text(v, k)
    return _value(_core.calibrate(name, text, precision), precision)


def laplace_scale(epsilon, sensitivity=1, *, precision: str = "double"):
    """Laplace scale b = sensitivity / epsilon, rounded up (ACC.LAPLACE)."""
    return calibrate("laplace_scale", precision, epsilon=epsilon, sensitivity=sensitivity)


def gaussian_sigma(epsilon, delta, sensitivity=1, *, precision: str = "double"):
    """Smallest sigma such that N(0, sigma^2) is (epsilon, delta)-DP by the exact analytic
    Gaussian criterion (Balle & Wang 2018; ACC.GAUSS.ANALYTIC), rounded up."""
    return calibrate("gaussian_sigma", precision, epsilon=epsilon, delta=delta,
                     sensitivity=sensitivity)


def gaussian_sigma_classical(epsilon, delta, sensitivity=1, *, precision: str = "double"):
    """Classical sigma = sqrt(2 ln(1.25/delta)) sensitivity / epsilon, valid (and enforced) for
    epsilon < 1 (ACC.GAUSS.CLASSICAL), rounded up."""
    return calibrate("gaussian_sigma_classical", precision, epsilon=epsilon, delta=delta,
                     sensitivity=sensitivity)


def gaussian_epsilon(sigma, delta, sensitivity=1, *, precision: str = "double"):
    """Smallest epsilon such that N(0, sigma^2) is (epsilon, delta)-DP (analytic Gaussian)."""
    return calibrate("gaussian_epsilon", precision, sigma=sigma, delta=delta,
                     sensitivity=sensitivity)


def gaussian_delta(sigma, epsilon, sensitivity=1, *, precision: str = "double"):
    """delta(epsilon) of N(0, sigma^2) (Balle & Wang exact formula), rounded up."""
    return calibrate("gaussian_delta", precision, sigma=sigma, epsilon=epsilon,
                     sensitivity=sensitivity)


def laplace_epsilon(scale, sensitivity=1, *, precision: str = "double"):
    """epsilon = sensitivity / scale of the Laplace mechanism (l1 sensitivity)."""
    return calibrate("laplace_epsilon", precision, scale=scale, sensitivity=sensitivity)


def vector_laplace_epsilon(scale, sensitivity=1, *, precision: str = "double"):
    """epsilon = sensitivity / scale of the l2 (vector) Laplace mechanism."""
    return calibrate("vector_laplace_epsilon", precision, scale=scale, sensitivity=sensitivity)


def exponential_epsilon(scale, utility_sensitivity, monotone: bool = False, *,
                        precision: str = "double"):
    """epsilon of the exponential mechanism P ∝ exp(u/scale): 2 Δu / scale (Δu / scale if the
    utility is monotone)."""
    return calibrate("exponential_epsilon", precision, scale=scale,
                     utility_sensitivity=utility_sensitivity, monotone=monotone)


def discrete_laplace_epsilon(t, sensitivity=1, *, precision: str = "double"):
    """epsilon = sensitivity / t of the discrete Laplace with rational scale t ("p/q", Fraction
    or int; ACC.DISCRETE.LAPLACE)."""
    num, _, den = rational_text(t, "t").partition("/")
    return calibrate("discrete_laplace_epsilon", precision, t_num=int(num), t_den=int(den or 1),
                     sensitivity=sensitivity)


def discrete_gaussian_delta(sigma2, epsilon, sensitivity: int = 1, *, precision: str = "double"):
    """Exact delta(epsilon) of the discrete Gaussian N_Z(0, sigma2) (sigma2 rational) on an
    integer query of integer sensitivity (ACC.DISCRETE.GAUSS), rounded up."""
    num, _, den = rational_text(sigma2, "sigma2").partition("/")
    return calibrate("discrete_gaussian_delta", precision, var_num=int(num),
                     var_den=int(den or 1), sensitivity=int(sensitivity), epsilon=epsilon)
