#!/usr/bin/env python3
"""Audit a mechanism written in Python with dpref's statistical auditor (spec/audit.md,
spec/python.md PY.EXAMPLES).

Run: PYTHONPATH=build/release/python python3 examples/python/audit_python_mechanism.py

The mechanism releases q(D) + Laplace noise with numpy. dpref calls it in batches,
f(side, n, seed) -> n outputs of M(D) (side 0) or M(D') (side 1) with q(D) = 0, q(D') = 1,
chooses threshold events on a search sample and bounds epsilon from below on an independent test
sample (Clopper–Pearson, false-alarm probability alpha = 1e-6). The correctly calibrated
mechanism (scale 1/epsilon) passes; the one with half the scale is flagged. Exits with status 1
otherwise.
"""
import sys

import numpy as np

import dpref

EPS = 1.0


def laplace_mechanism(scale):
    def release(side, n, seed):
        rng = np.random.default_rng(seed)      # dpref chooses the seed of every batch
        return float(side) + rng.laplace(0.0, scale, n)
    return release


ok = True
for name, scale, should_flag in [("correct (b = 1/eps)", 1 / EPS, False),
                                 ("half scale (b = 1/(2 eps))", 0.5 / EPS, True)]:
    r = dpref.audit(laplace_mechanism(scale), epsilon=EPS, samples=2 ** 17, alpha=1e-6)
    pair = r["pairs"][0]
    print(f"{name:28s} eps_lb = {r['epsilon_lower_bound']:.3f} vs claimed {EPS}: {r['verdict']}"
          f"  (event: {pair['event']}; counts {pair['count_numerator']} vs "
          f"{pair['count_denominator']} of {pair['test_samples']})")
    ok &= r["violation"] == should_flag
sys.exit(0 if ok else 1)
