#!/usr/bin/env python3
"""Golden values for tests/regression/accounting_golden.json (spec/accounting.md, ACC.GOLDEN).

Computed with mpmath at 1200 bits by formulas written independently of the C++ code: direct
(non-log-space) binomial sums, sinh forms, direct erfc, full enumeration. Inputs are doubles
(printed with repr, so the C++ side reads back the exact binary value). Outputs carry 100
significant digits. Usage: scripts/gen_accounting_golden.py > tests/regression/accounting_golden.json
"""
import json
from mpmath import mp, mpf, binomial, exp, log, log1p, expm1, erfc, sqrt, sinh, e as E

mp.prec = 1200


def s(x):
    return mp.nstr(x, 100)


def phi(x):
    return erfc(-x / sqrt(2)) / 2


cases = []


def add(kind, inputs, value):
    cases.append({"kind": kind, "inputs": inputs, "value": s(value)})


# Laplace RDP (Mironov Prop 6), direct (no log-sum-exp).
for sens, scale, a in [(1.0, 2.0, 2.0), (1.0, 1.0, 1.5), (2.0, 1.0, 32.0), (1.0, 10.0, 1.0009765625),
                       (1.0, 1.0 / 3.0, 1000.0)]:
    e, al = mpf(sens) / mpf(scale), mpf(a)
    v = log(al / (2 * al - 1) * exp((al - 1) * e) + (al - 1) / (2 * al - 1) * exp(-al * e)) / (al - 1)
    add("laplace_rdp", [sens, scale, a], v)

# Tight eps-DP -> RDP via the sinh form (autodp RDP_pureDP), min with eps and alpha eps^2/2.
for eps, a in [(1.0, 2.0), (0.25, 10.0), (5.0, 3.0), (0.01, 100.0), (2.0, 1.25)]:
    e, al = mpf(eps), mpf(a)
    rr = log((sinh(al * e) - sinh((al - 1) * e)) / sinh(e)) / (al - 1)
    add("pure_to_rdp", [eps, a], min(rr, e, al * e * e / 2))

# Analytic Gaussian delta (Balle-Wang Thm 8).
for sens, sigma, eps in [(1.0, 1.0, 1.0), (1.0, 0.5, 3.0), (2.0, 10.0, 0.1), (1.0, 3.0, 0.0),
                         (1.0, 0.25, 20.0)]:
    d, sg, e = mpf(sens), mpf(sigma), mpf(eps)
    v = phi(d / (2 * sg) - e * sg / d) - exp(e) * phi(-d / (2 * sg) - e * sg / d)
    add("analytic_gaussian_delta", [sens, sigma, eps], v)


# MTZ exact subsampled Gaussian RDP, direct binomial sum.
def mtz(q, sigma, a):
    q, sg = mpf(q), mpf(sigma)
    tot = sum(binomial(a, k) * (1 - q) ** (a - k) * q ** k * exp(mpf(k * k - k) / (2 * sg * sg))
              for k in range(a + 1))
    return log(tot) / (a - 1)


for q, sigma, a in [(0.01, 1.1, 2), (0.01, 1.1, 10), (0.01, 1.1, 64), (0.01, 1.1, 256),
                    (0.5, 2.0, 7), (1e-4, 0.8, 1024), (1.0, 1.5, 5),
                    (0.5, 0.125, 2000)]:  # last: beyond the direct path (log-space in C++)
    add("mtz", [q, sigma, float(a)], mtz(q, sigma, a))


# Zhu-Wang general bound (linesearch Lemma 4) on the Gaussian base eps(l) = l/(2 sigma^2).
def zw(q, sigma, a):
    q, sg = mpf(q), mpf(sigma)
    ep = lambda l: mpf(l) / (2 * sg * sg)
    tot = (1 - q) ** (a - 1) * (a * q - q + 1) + binomial(a, 2) * q ** 2 * (1 - q) ** (a - 2) * exp(ep(2))
    tot += 3 * sum(binomial(a, l) * q ** l * (1 - q) ** (a - l) * exp((l - 1) * ep(l)) for l in range(3, a + 1))
    return min(log(tot) / (a - 1), ep(a))


for q, sigma, a in [(0.01, 1.1, 2), (0.01, 1.1, 3), (0.01, 1.1, 50), (0.2, 4.0, 1000),
                    (0.01, 0.01, 200)]:  # last: log-space path in C++
    add("zw_gaussian", [q, sigma, float(a)], zw(q, sigma, a))

# Benchmark pipeline: q = 0.01, sigma = 1.1, orders 2..256, 1e4 steps, delta = 1e-5, Balle 2020.
q, sg, steps, delta = 0.01, 1.1, 10000, 1e-5
best = None
for a in range(2, 257):
    tau = steps * mtz(q, sg, a)
    al = mpf(a)
    v = tau + log((al - 1) / al) - (log(mpf(delta)) + log(al)) / (al - 1)
    best = v if best is None or v < best else best
add("bench_pipeline", [q, sg, float(steps), delta], best)

# Kairouz-Oh-Viswanath optimal homogeneous composition (Thm 3.3), full enumeration.
def kov(eps, k, target):
    e = mpf(eps)
    best = k * e
    for i in range(0, k // 2 + 1):
        di = sum(binomial(k, l) * (exp((k - l) * e) - exp((k - 2 * i + l) * e)) for l in range(i)) / (1 + exp(e)) ** k
        if di <= mpf(target):
            best = (k - 2 * i) * e
        else:
            break
    return best


for eps, k, target in [(0.1, 100, 1e-5), (0.5, 30, 1e-3), (1.0, 9, 0.1)]:
    add("kov_optimal", [eps, float(k), target], kov(eps, k, target))

# dda Lemma 4.3 advanced composition, T equal parts (eps_i, 0).
for eps, T, dp in [(0.1, 100, 1e-6), (0.875, 3, 0.5)]:
    e = mpf(eps)
    s2 = T * e * e
    add("advanced_dda", [eps, float(T), dp], sqrt(2 * s2 * log(E + sqrt(s2) / mpf(dp))) + s2)

# accel Prop 3.1: b = S1/(m eps0), eps0 = ln(1 + (e^{eps/T} - 1) n/m).
for S1, eps, T, n, m in [(1.0, 1.0, 100, 100000, 1000), (2.0, 0.5, 1, 10, 10)]:
    e0 = log(1 + (exp(mpf(eps) / T) - 1) * mpf(n) / m)
    add("accel_prop31_b", [S1, eps, float(T), float(n), float(m)], mpf(S1) / (m * e0))

print(json.dumps({"generator": "scripts/gen_accounting_golden.py (mpmath, 1200 bits)",
                  "cases": cases}, indent=1))
