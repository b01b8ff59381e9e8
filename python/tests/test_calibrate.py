"""PY.CALIBRATE: the calibrators and privacy functions of dpref.calibrate are the certified C++
functions (rounded up: never below the exact value), at every precision."""
from fractions import Fraction

import mpmath
import pytest
from scipy import stats

import dpref
from dpref import calibrate as cal


def test_laplace_scale_is_the_exact_quotient_rounded_up():
    for eps, sens in [(0.5, 1), (0.1, 1), (0.3, 2.5), (3, 0.25)]:
        b = cal.laplace_scale(eps, sens)
        exact = Fraction(repr(sens)) / Fraction(repr(eps))  # the decimal inputs
        assert Fraction(b) >= exact
        assert Fraction(b) - exact < Fraction(2) ** -52 * exact * 2


def test_analytic_gaussian_sigma_meets_delta_and_beats_the_classical_one():
    eps, delta = 0.5, 1e-5
    s = cal.gaussian_sigma(eps, delta)
    c = cal.gaussian_sigma_classical(eps, delta)
    assert s < c
    # delta(eps) at the returned sigma, by scipy (Balle & Wang): <= delta (up to scipy's error)
    d = stats.norm.cdf(1 / (2 * s) - eps * s) - mpmath.e ** eps * stats.norm.cdf(-1 / (2 * s) - eps * s)
    assert float(d) <= delta * (1 + 1e-6)
    assert cal.gaussian_delta(s, eps) <= delta
    assert abs(cal.gaussian_epsilon(s, delta) - eps) < 1e-9
    # the classical form: sqrt(2 ln(1.25/delta)) / eps
    assert abs(c - (2 * mpmath.log(1.25 / mpmath.mpf(delta))) ** 0.5 / eps) < 1e-12


def test_multiprecision_results_are_mpf_and_bound_the_double_ones():
    d = cal.gaussian_sigma(1, 1e-5)
    m = cal.gaussian_sigma(1, "0.00001", precision="mp50")
    assert isinstance(m, mpmath.mpf)
    assert d >= m  # the double result is the mp50 one rounded up (ACC.CERT.UP)
    assert abs(d - m) < 1e-15 * d
    ld = cal.laplace_scale(3, precision="long-double")
    assert ld.dtype.kind == "f" and ld.dtype.itemsize > 8


def test_other_functions():
    assert cal.laplace_epsilon(4, 2) == 0.5
    assert cal.vector_laplace_epsilon(0.5) == 2.0
    assert cal.exponential_epsilon(4, 0.5) == 0.25
    assert cal.exponential_epsilon(4, 0.5, monotone=True) == 0.125
    assert cal.discrete_laplace_epsilon("7/3") == pytest.approx(3 / 7, rel=1e-15)
    assert cal.discrete_laplace_epsilon(Fraction(7, 3)) == cal.discrete_laplace_epsilon((7, 3))
    assert 0 < cal.discrete_gaussian_delta("25/4", 0.5) < 1
    names = cal.functions()
    assert "gaussian_sigma" in names and names["laplace_scale"][0] == ["epsilon", "sensitivity"]
    assert cal.calibrate("laplace_scale", epsilon=0.5) == 2.0


def test_errors_are_the_cpp_messages():
    with pytest.raises(ValueError) as e:
        cal.gaussian_sigma_classical(1.5, 1e-5)
    assert str(e.value) == "gaussian_sigma_classical: eps must be < 1, got 1.5"
    with pytest.raises(ValueError) as e:
        cal.laplace_scale(0)
    assert str(e.value) == "laplace_scale: eps must be finite and > 0, got 0"
    with pytest.raises(ValueError, match="function must be one of"):
        cal.calibrate("nope")
