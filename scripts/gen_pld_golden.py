#!/usr/bin/python3
"""Golden values for tests/regression/accounting_pld_golden.json (spec/accounting_pld.md,
ACC.PLD.GOLDEN and ACC.RDP.FRAC).

Computed with mpmath at 60 significant digits (outputs carry 45) by formulas written
independently of the C++ code:
  * composed Gaussians: the closed form of one Gaussian with mu = sqrt(k) * Delta / sigma
    (Balle-Wang), epsilon by root finding;
  * single mechanisms: delta(eps) = integral (or sum) of (p - e^eps q)_+ over the output space,
    by adaptive quadrature split at the crossing points, or exact enumeration;
  * 2-fold Poisson-subsampled Gaussians: delta_2(eps) = E_{x~P}[ delta_1(eps - L(x)) ] with the
    closed-form one-step delta_1 extended to all real arguments, integrated by quadrature;
  * k-fold randomized response: exact enumeration of the (multinomial) loss counts;
  * fractional-order RDP of the subsampled Gaussian: A_alpha = integral mu0 (mu/mu0)^alpha.
Quadrature is run twice (tanh-sinh and Gauss-Legendre); a case is emitted only if the two agree
to 1e-40 relative (rigorous-enough error control). Inputs are doubles printed with repr, so the
C++ side reads back the exact binary values.
Usage: /usr/bin/python3 scripts/gen_pld_golden.py > tests/regression/accounting_pld_golden.json
"""
import json
import sys
from mpmath import (mp, mpf, quad, exp, log, log1p, expm1, sqrt, erfc, inf, pi, findroot,
                    binomial, factorial, nsum)

mp.dps = 60
DIGITS = 45


def s(x):
    return mp.nstr(x, DIGITS, min_fixed=-5, max_fixed=5)


def Phic(x):  # standard normal upper tail
    return erfc(x / sqrt(2)) / 2


def npdf(x, m, sg):
    return exp(-(x - m) ** 2 / (2 * sg * sg)) / (sqrt(2 * pi) * sg)


def q2(f, pts):
    """Quadrature by two methods; returns the value if they agree to 1e-40 relative."""
    a = quad(f, pts, method='tanh-sinh', maxdegree=10)
    b = quad(f, pts, method='gauss-legendre', maxdegree=10)
    scale = max(abs(a), mpf(10) ** -300)
    if abs(a - b) > mpf(10) ** -40 * scale:
        raise RuntimeError('quadrature disagreement %s vs %s' % (a, b))
    return a


cases = []


def add(kind, inputs, value):
    cases.append({"kind": kind, "inputs": inputs, "value": s(value)})


# ---------------------------------------------------------------------------- composed Gaussians
def gauss_delta(mu, eps):
    return Phic(eps / mu - mu / 2) - exp(eps) * Phic(eps / mu + mu / 2)


for sens, sigma, k, eps in [(1.0, 1.0, 1, 1.0), (1.0, 2.0, 1, 0.5), (1.0, 5.0, 100, 2.0),
                            (1.0, 5.0, 100, 8.0), (1.0, 10.0, 50, 1.0), (2.0, 3.0, 20, 3.0),
                            (1.0, 0.5, 1, 4.0), (1.0, 20.0, 1000, 1.5)]:
    mu = sqrt(k) * mpf(sens) / mpf(sigma)
    add("gaussian_composed_delta", [sens, sigma, k, eps], gauss_delta(mu, mpf(eps)))

for sens, sigma, k, delta in [(1.0, 5.0, 100, 1e-5), (1.0, 1.0, 1, 1e-5), (1.0, 2.0, 10, 1e-6),
                              (1.0, 10.0, 50, 1e-5), (1.0, 0.8, 4, 1e-3), (1.0, 20.0, 1000, 1e-8)]:
    mu = sqrt(k) * mpf(sens) / mpf(sigma)
    e = findroot(lambda x: gauss_delta(mu, x) - mpf(delta), mu * mu / 2 + 3 * mu)
    add("gaussian_composed_epsilon", [sens, sigma, k, delta], e)


# ---------------------------------------------------------------------------- Laplace (direct)
def laplace_delta(sens, b, eps):
    sens, b, eps = mpf(sens), mpf(b), mpf(eps)
    p = lambda x: exp(-abs(x - sens) / b) / (2 * b)
    q = lambda x: exp(-abs(x) / b) / (2 * b)
    # p - e^eps q > 0 only for x >= x*, where the (monotone) loss exceeds eps
    xs = (eps * b + sens) / 2
    if xs >= sens:
        return mpf(0)
    f = lambda x: p(x) - exp(eps) * q(x)
    return q2(f, [xs, sens]) + (mpf(1) / 2 - exp(eps) * exp(-sens / b) / 2)


for sens, b, eps in [(1.0, 1.0, 0.5), (1.0, 2.0, 0.1), (2.0, 1.0, 1.0), (1.0, 1.0, 0.0)]:
    add("laplace_delta", [sens, b, eps], laplace_delta(sens, b, eps))


# ---------------------------------------------------------------------------- randomized response
def rr_composed_delta(eps0, kout, kc, eps):
    eps0, eps = mpf(eps0), mpf(eps)
    z = exp(eps0) + kout - 1
    ph, pl, pm = exp(eps0) / z, 1 / z, mpf(kout - 2) / z
    tot = mpf(0)
    for a in range(kc + 1):
        for b in range(kc - a + 1):
            c = kc - a - b
            if kout == 2 and c > 0:
                continue
            pr = factorial(kc) / (factorial(a) * factorial(b) * factorial(c)) * ph ** a * pl ** b * pm ** c
            l = eps0 * (a - b)
            if l > eps:
                tot += pr * (1 - exp(eps - l))
    return tot


for eps0, kout, kc, eps in [(1.0, 2, 1, 0.0), (0.5, 4, 10, 1.0), (1.0, 2, 25, 3.0),
                            (0.25, 3, 40, 1.5)]:
    add("rr_composed_delta", [eps0, kout, kc, eps], rr_composed_delta(eps0, kout, kc, eps))


# ---------------------------------------------------------------------------- bounded range (EM)
def br_delta(e, eps):
    # max over t in [0, e] of the binary pair with losses {t, t - e}, by golden-section search
    e, eps = mpf(e), mpf(eps)

    def g(t):
        p1 = (exp(e) - exp(t)) / (exp(e) - 1)
        d = p1 * max(0, 1 - exp(eps - t)) + (1 - p1) * max(0, 1 - exp(eps - t + e))
        return d
    lo, hi = max(eps, mpf(0)), e
    for _ in range(400):
        m1, m2 = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        if g(m1) < g(m2):
            lo = m1
        else:
            hi = m2
    return g((lo + hi) / 2)


for e, eps in [(1.0, 0.0), (1.0, 0.5), (2.0, 0.25), (0.5, 0.1)]:
    add("bounded_range_delta", [e, eps], br_delta(e, eps))


# ---------------------------------------------------------------------------- discrete mechanisms
def dgauss_delta(sigma, sens, eps):
    sg, eps = mpf(sigma), mpf(eps)
    K = int(sigma * 40) + 60
    u = lambda z: exp(-mpf(z) ** 2 / (2 * sg * sg))
    Z = sum(u(z) for z in range(-K, K + 1))
    return sum(max(0, u(z - sens) - exp(eps) * u(z)) for z in range(-K, K + 1)) / Z


def dlaplace_delta(sens, t, eps):
    t, eps = mpf(t), mpf(eps)
    K = int(t * 200) + 200 + sens
    u = lambda z: exp(-abs(mpf(z)) / t)
    Z = (1 + exp(-1 / t)) / (1 - exp(-1 / t))
    return sum(max(0, u(z - sens) - exp(eps) * u(z)) for z in range(-K, K + 1)) / Z


for sigma, sens, eps in [(2.0, 1, 0.5), (1.0, 1, 1.0), (5.0, 2, 0.2)]:
    add("dgauss_delta", [sigma, sens, eps], dgauss_delta(sigma, sens, eps))
for sens, t, eps in [(1, 2.0, 0.25), (3, 5.0, 0.3)]:
    add("dlaplace_delta", [sens, t, eps], dlaplace_delta(sens, t, eps))


# ---------------------------------------------------------------------------- subsampled Gaussians
def sub_single_direct(q, sigma, eps, direction):
    """(p - e^eps q)_+ integrated over x; P, Q as in spec ACC.PLD.SUBSAMPLE.POISSON."""
    q, sg, eps = mpf(q), mpf(sigma), mpf(eps)
    mix = lambda x: (1 - q) * npdf(x, 0, sg) + q * npdf(x, 1, sg)
    base = lambda x: npdf(x, 0, sg)
    if direction == "remove":
        p, qq = mix, base
        # loss increasing in x: crossing at x_eps
        if eps <= log1p(-q):
            return 1 - exp(eps)
        xc = sg * sg * log((expm1(eps) + q) / q) + mpf(1) / 2
        f = lambda x: p(x) - exp(eps) * qq(x)
        return q2(f, [xc, xc + 20 * sg, inf])
    p, qq = base, mix
    if eps >= -log1p(-q):
        return mpf(0)
    xc = sg * sg * log((expm1(-eps) + q) / q) + mpf(1) / 2
    f = lambda x: p(x) - exp(eps) * qq(x)
    return q2(f, [-inf, xc - 20 * sg, xc])


def sub_delta1_ext(q, sg, t, direction):
    """Closed-form one-step delta(t) for any real t."""
    if direction == "remove":
        if t <= log1p(-q):
            return 1 - exp(t)
        x = sg * sg * log((expm1(t) + q) / q) + mpf(1) / 2
        P = (1 - q) * Phic(x / sg) + q * Phic((x - 1) / sg)
        Q = Phic(x / sg)
        return P - exp(t) * Q
    if t >= -log1p(-q):
        return mpf(0)
    x = sg * sg * log((expm1(-t) + q) / q) + mpf(1) / 2
    P = 1 - Phic(x / sg)
    Q = (1 - q) * (1 - Phic(x / sg)) + q * (1 - Phic((x - 1) / sg))
    return P - exp(t) * Q


def sub_two_fold(q, sigma, eps, direction):
    q, sg, eps = mpf(q), mpf(sigma), mpf(eps)
    if direction == "remove":
        pdf = lambda x: (1 - q) * npdf(x, 0, sg) + q * npdf(x, 1, sg)
        L = lambda x: log(1 - q + q * exp((2 * x - 1) / (2 * sg * sg)))
        # kink where eps - L(x) = log(1 - q)
        t = eps - log1p(-q)
        xk = sg * sg * log((expm1(t) + q) / q) + mpf(1) / 2 if t > log1p(-q) else None
    else:
        pdf = lambda x: npdf(x, 0, sg)
        L = lambda x: -log(1 - q + q * exp((2 * x - 1) / (2 * sg * sg)))
        t = eps + log1p(-q)  # eps - L(x) = -log(1-q)  <=>  L(x) = eps + log(1-q)
        xk = sg * sg * log((expm1(-t) + q) / q) + mpf(1) / 2 if -t > log1p(-q) else None
    f = lambda x: pdf(x) * sub_delta1_ext(q, sg, eps - L(x), direction)
    pts = [-inf] + [mpf(i) * sg / 2 for i in range(-60, 63)] + [inf]
    if xk is not None:
        pts = sorted(set(pts + [xk]), key=lambda v: v)
    return q2(f, pts)


for q, sigma, eps, d in [(0.01, 1.1, 0.01, "remove"), (0.01, 1.1, 0.05, "remove"),
                         (0.01, 1.1, 0.005, "add"), (0.1, 1.0, 0.5, "remove"),
                         (0.1, 1.0, 0.05, "add"), (0.25, 3.0, 0.02, "remove")]:
    add("subsampled_gaussian_delta", [q, sigma, eps, d], sub_single_direct(q, sigma, eps, d))
for q, sigma, eps, d in [(0.1, 1.0, 0.5, "remove"), (0.1, 1.0, 0.1, "add"),
                         (0.05, 1.0, 0.2, "remove")]:
    add("subsampled_gaussian_delta_2fold", [q, sigma, eps, d], sub_two_fold(q, sigma, eps, d))


def three_point_delta(q, sigma, eps):
    q, sg, eps = mpf(q), mpf(sigma), mpf(eps)
    p = lambda x: (1 - q) * npdf(x, 0, sg) + q * npdf(x, 1, sg)
    qq = lambda x: (1 - q) * npdf(x, 0, sg) + q * npdf(x, -1, sg)
    xc = findroot(lambda x: log(p(x) / qq(x)) - eps, mpf(1))
    return q2(lambda x: p(x) - exp(eps) * qq(x), [xc, xc + 30 * sg, inf])


for q, sigma, eps in [(0.1, 1.0, 0.5), (0.05, 0.8, 1.0)]:
    add("three_point_gaussian_delta", [q, sigma, eps], three_point_delta(q, sigma, eps))


# ---------------------------------------------------------------------------- fractional RDP
def rdp_frac(q, sigma, a):
    q, sg, a = mpf(q), mpf(sigma), mpf(a)
    z0 = sg * sg * log((1 - q) / q) + mpf(1) / 2
    f = lambda z: npdf(z, 0, sg) * (1 - q + q * exp((2 * z - 1) / (2 * sg * sg))) ** a
    A = q2(f, [-inf, -30 * sg, 0, z0, a, a + 30 * sg, inf])
    return log(A) / (a - 1)


for q, sigma, a in [(0.01, 1.1, 1.1), (0.01, 1.1, 1.5), (0.01, 1.1, 4.7), (0.01, 1.1, 10.9),
                    (0.001, 0.8, 2.5), (0.1, 2.0, 3.3), (0.25, 3.0, 1.25), (0.02, 0.6, 6.6),
                    (0.05, 1.0, 20.5)]:
    add("rdp_frac", [q, sigma, a], rdp_frac(q, sigma, a))

json.dump({"generator": "scripts/gen_pld_golden.py", "digits": DIGITS, "cases": cases},
          sys.stdout, indent=1)
sys.stdout.write("\n")
