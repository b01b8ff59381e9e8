#!/usr/bin/python3
"""Samplers of the dpref Python package against numpy's Generator, for `dpref reproduce`
(spec/reproduce.md REPRO.PERF, spec/random.md RAND.ZIGGURAT): for each sampler, the median over
alternating repeats (numpy, ziggurat, reference, numpy, ...) of
`dpref.sample(dist, n, seed=..., sampler="ziggurat")` (one thread), of the reference
`dpref.sample(dist, n, seed=...)` and of numpy's Generator method with the same n, in this run,
with the 1-minute load average before and after.

usage: report_samplers.py --out FILE.json [--n 1000000] [--repeats 11]

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
    ap.add_argument("--repeats", type=int, default=11)
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
    import os

    g = np.random.default_rng(1)
    n = a.n
    cases = [
        ("laplace", 1.0, lambda: g.laplace(0.0, 1.0, n), "Generator.laplace"),
        ("exponential", 1.0, lambda: g.exponential(1.0, n), "Generator.exponential"),
        ("gaussian", 1.0, lambda: g.normal(0.0, 1.0, n), "Generator.normal"),
        ("uniform", None, lambda: g.random(n), "Generator.random"),
    ]
    kernel = dpref._core.ziggurat_kernel()
    rows = []
    for name, param, theirs, ref in cases:
        t0 = time.perf_counter()
        variants = [
            ("numpy", lambda s: theirs()),
            ("ziggurat", lambda s: dpref.sample(name, n, params=param, seed=s,
                                                sampler="ziggurat", threads=1)),
            ("reference", lambda s: dpref.sample(name, n, params=param, seed=s)),
        ]
        for _, f in variants:  # warm-up (tables, page faults)
            f(0)
        times = {k: [] for k, _ in variants}
        load0 = os.getloadavg()[0]
        for r in range(a.repeats):
            for k, f in variants:
                t = time.perf_counter()
                f(r + 1)
                times[k].append(time.perf_counter() - t)
        load1 = os.getloadavg()[0]
        med = {k: statistics.median(v) for k, v in times.items()}
        rows.append({"name": f"sampler {name} (dpref.sample, ziggurat, 1 thread)",
                     "dpref": n / med["ziggurat"], "numpy": n / med["numpy"],
                     "reference": f"numpy {np.__version__} {ref}",
                     "note": f"n = {n}, median of {a.repeats} alternating repeats, kernel "
                             f"{kernel}; load {load0:.1f} -> {load1:.1f} (1 min, "
                             f"{os.cpu_count()} cores); reference inversion samples "
                             f"{n / med['reference']:.3g}/s ({med['numpy'] / med['reference']:.2f}"
                             " x numpy)",
                     "seconds": time.perf_counter() - t0})
    write(a.out, {"rows": rows})


def write(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
