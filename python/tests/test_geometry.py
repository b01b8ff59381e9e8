"""PY.GEOMETRY: dpref.geometry.project_capped_simplex is the exact projection of
geometry/capped_simplex.hpp (KKT conditions hold; mp50 agrees; errors are the C++ ones)."""
import mpmath
import numpy as np
import pytest

import dpref


def test_projection_satisfies_the_kkt_conditions():
    rng = np.random.default_rng(5)
    for t in (1, 3, 10, 40):
        x0 = rng.normal(size=t)
        a = rng.uniform(0.1, 2, size=t)
        b = 0.4 * a.sum()
        x, nu = dpref.geometry.project_capped_simplex(x0, a, b)
        assert x.shape == (t,)
        assert np.all(x >= 0) and np.all(x <= a)
        assert abs(x.sum() - b) < 1e-12 * max(1, b)
        assert np.allclose(x, np.clip(x0 - nu, 0, a), atol=1e-14)


def test_mp50_agrees_and_is_mpf():
    x0, a, b = ["0.3", "-1", "2", "0.75"], ["1", "1", "0.5", "2"], "1.5"
    xd, nud = dpref.geometry.project_capped_simplex(x0, a, b)
    xm, num = dpref.geometry.project_capped_simplex(x0, a, b, precision="mp50")
    assert all(isinstance(v, mpmath.mpf) for v in xm)
    assert all(abs(float(m) - d) < 1e-15 for m, d in zip(xm, xd))
    assert abs(float(num) - nud) < 1e-15


def test_errors():
    with pytest.raises(ValueError, match="b must be <= 1'a"):
        dpref.geometry.project_capped_simplex([0, 0], [1, 1], 3)
    with pytest.raises(ValueError, match="x0 must be of the same dimension"):
        dpref.geometry.project_capped_simplex([0], [1, 1], 1)
