#!/usr/bin/python3
"""Samplers of the dpref Python package against numpy's Generator, for `dpref reproduce`
(spec/reproduce.md REPRO.PERF): for each sampler, the median over alternating repeats of
`dpref.sample(dist, n, seed=...)` and of numpy's Generator method with the same n, in this run.

usage: report_samplers.py --out FILE.json [--n 1000000] [--repeats 5]

Writes {"rows": [{name, dpref, numpy, reference, note, seconds}]} (samples/s), or
{"absent": reason} when numpy or the dpref package cannot be imported (the report then says why).
"""
import argparse
import json
import statistics
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--n", type=int, default=10 ** 6)
    ap.add_argument("--repeats", type=int, default=5)
    a = ap.parse_args()
    try:
        import numpy as np
    except ImportError as e:
        return write(a.out, {"absent": f"numpy is not importable by {sys.executable} ({e})"})
    try:
        import dpref
    except ImportError as e:
        return write(a.out, {"absent": "the dpref Python package is not importable (build the "
                                       f"target dpref_python; PYTHONPATH=<build>/python): {e}"})
    g = np.random.default_rng(1)
    n = a.n
    cases = [
        ("laplace", lambda s: dpref.sample("laplace", n, params=1.0, seed=s),
         lambda: g.laplace(0.0, 1.0, n), "Generator.laplace"),
        ("exponential", lambda s: dpref.sample("exponential", n, params=1.0, seed=s),
         lambda: g.exponential(1.0, n), "Generator.exponential"),
        ("gaussian", lambda s: dpref.sample("gaussian", n, params=1.0, seed=s),
         lambda: g.normal(0.0, 1.0, n), "Generator.normal"),
        ("uniform", lambda s: dpref.sample("uniform", n, seed=s), lambda: g.random(n),
         "Generator.random"),
    ]
    rows = []
    for name, ours, theirs, ref in cases:
        t0 = time.perf_counter()
        ours(0), theirs()  # warm-up
        to, tt = [], []
        for r in range(a.repeats):
            t = time.perf_counter()
            ours(r + 1)
            to.append(time.perf_counter() - t)
            t = time.perf_counter()
            theirs()
            tt.append(time.perf_counter() - t)
        rows.append({"name": f"sampler {name} (dpref.sample, double)",
                     "dpref": n / statistics.median(to), "numpy": n / statistics.median(tt),
                     "reference": f"numpy {np.__version__} {ref}",
                     "note": f"n = {n}, median of {a.repeats} alternating repeats; dpref draws "
                             "are the reference (inversion) samples",
                     "seconds": time.perf_counter() - t0})
    write(a.out, {"rows": rows})


def write(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
