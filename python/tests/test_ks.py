"""PY.SAMPLE.KS: goodness of fit of dpref.sample against scipy.stats, with negative controls.

Each positive test is a one-sample Kolmogorov–Smirnov (continuous) or chi-square (discrete) test
of 10^5 draws that fails when p < 1e-6: false-alarm probability 1e-6 per test, <= 1.3e-5 for the
file (13 tests). Each negative control runs the same test against a 5 % wrong scale (or a wrong
parameter) and must reject (p < 1e-6); with 10^5 draws the KS distance of a 5 % scale error is
about 0.017, i.e. sqrt(n) D ≈ 5.4 and p < 1e-20, so a negative control misses with probability
< 1e-15."""
import numpy as np
import pytest
from scipy import stats

import dpref

N = 100_000
ALPHA = 1e-6


def draw(dist, params, seed=20261121):
    return dpref.sample(dist, N, params=params, seed=seed)


CONTINUOUS = [
    ("laplace", {"b": 2.0}, stats.laplace(scale=2.0), stats.laplace(scale=2.1)),
    ("gaussian", {"sigma": 1.5}, stats.norm(scale=1.5), stats.norm(scale=1.575)),
    ("exponential", {"rate": 0.5}, stats.expon(scale=2.0), stats.expon(scale=2.1)),
    ("uniform", None, stats.uniform(), stats.uniform(scale=1.05)),
    ("gamma", {"shape": 2.5, "theta": 1.5}, stats.gamma(2.5, scale=1.5),
     stats.gamma(2.5, scale=1.575)),
]


@pytest.mark.parametrize("dist,params,right,wrong", CONTINUOUS, ids=[c[0] for c in CONTINUOUS])
def test_ks_and_negative_control(dist, params, right, wrong):
    x = draw(dist, params)
    assert stats.kstest(x, right.cdf).pvalue > ALPHA
    assert stats.kstest(x, wrong.cdf).pvalue < ALPHA


def test_direction_first_coordinate_is_beta():
    """u uniform on S^{d-1}: (u_1 + 1)/2 ~ Beta((d-1)/2, (d-1)/2) (RAND.SPHERE)."""
    d = 5
    u = dpref.sample("direction", N, params={"dim": d}, seed=3)
    assert np.allclose(np.linalg.norm(u, axis=1), 1, atol=1e-14)
    y = (u[:, 0] + 1) / 2
    assert stats.kstest(y, stats.beta((d - 1) / 2, (d - 1) / 2).cdf).pvalue > ALPHA
    assert stats.kstest(y, stats.beta(d / 2, d / 2).cdf).pvalue < ALPHA  # wrong dimension


def test_vector_laplace_norm_is_gamma():
    """||w|| ~ Gamma(d, b) for the l2-Laplace (RAND.VLAPLACE)."""
    w = dpref.sample("vector-laplace", N, params={"dim": 3, "b": 1.5}, seed=4)
    r = np.linalg.norm(w, axis=1)
    assert stats.kstest(r, stats.gamma(3, scale=1.5).cdf).pvalue > ALPHA
    assert stats.kstest(r, stats.gamma(3, scale=1.575).cdf).pvalue < ALPHA


def chi2_pvalue(x, pmf, lo, hi):
    ks = np.arange(lo, hi + 1)
    obs = np.array([(x == k).sum() for k in ks] + [((x < lo) | (x > hi)).sum()], dtype=float)
    p = np.array([pmf(k) for k in ks])
    exp = np.append(p, max(1 - p.sum(), 1e-300)) * len(x)
    keep = exp > 5
    return stats.chisquare(obs[keep], exp[keep] * obs[keep].sum() / exp[keep].sum()).pvalue


def test_discrete_laplace_and_gaussian_pmfs():
    t = 7 / 3
    x = draw("discrete-laplace", {"t": "7/3"})
    q = np.exp(-1 / t)
    pmf = lambda k, t=t, q=q: (1 - q) / (1 + q) * np.exp(-abs(k) / t)  # noqa: E731
    assert chi2_pvalue(x, pmf, -15, 15) > ALPHA
    t2 = 7 / 3 * 1.15
    q2 = np.exp(-1 / t2)
    assert chi2_pvalue(x, lambda k: (1 - q2) / (1 + q2) * np.exp(-abs(k) / t2), -15, 15) < ALPHA
    g = draw("discrete-gaussian", {"sigma2": "25/4"})
    ks = np.arange(-60, 61)
    norm = np.exp(-ks ** 2 / 12.5).sum()
    assert chi2_pvalue(g, lambda k: np.exp(-k * k / 12.5) / norm, -12, 12) > ALPHA
    norm2 = np.exp(-ks ** 2 / (2 * 6.25 * 1.15)).sum()
    assert chi2_pvalue(g, lambda k: np.exp(-k * k / (2 * 6.25 * 1.15)) / norm2, -12, 12) < ALPHA


def test_bernoulli_frequency():
    b = draw("bernoulli", {"p": 0.3})
    assert stats.binomtest(int(b.sum()), N, 0.3).pvalue > ALPHA
    assert stats.binomtest(int(b.sum()), N, 0.32).pvalue < ALPHA


ZIGGURAT = [c for c in CONTINUOUS if c[0] in ("laplace", "gaussian", "exponential", "uniform")]


@pytest.mark.parametrize("dist,params,right,wrong", ZIGGURAT, ids=[c[0] for c in ZIGGURAT])
def test_ziggurat_ks_and_negative_control(dist, params, right, wrong):
    """RAND.ZIGGURAT through dpref.sample(sampler="ziggurat"): same test, same controls."""
    x = dpref.sample(dist, N, params=params, seed=20261121, sampler="ziggurat")
    assert stats.kstest(x, right.cdf).pvalue > ALPHA
    assert stats.kstest(x, wrong.cdf).pvalue < ALPHA
