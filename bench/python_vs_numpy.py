#!/usr/bin/env python3
"""Batch sampling throughput of the dpref Python package against numpy's Generator, measured in
one run of this script (spec/python.md PY.BENCH, spec/random.md RAND.ZIGGURAT).

usage: python3 bench/python_vs_numpy.py [--build build/release] [--n 1000000] [--repeats 15]
                                        [--threads 0] [--json]

For Laplace, exponential, Gaussian and uniform it times, alternating (numpy, ziggurat on one
thread, ziggurat on --threads threads, reference, numpy, ...), `dpref.sample(dist, n,
sampler="ziggurat")` (the fast double samplers), the reference `dpref.sample(dist, n)`
(correctly rounded inversion) and numpy's `Generator` method with the same n, and prints the
median time of each, the ratios numpy / dpref (> 1: dpref is faster) and the 1-minute load
average before and after each sampler. Uses Debian's /usr/bin/python3 when the current
interpreter lacks numpy.
"""
import argparse
import json
import os
import statistics
import sys
import time

try:
    import numpy as np
except ImportError:  # re-run under Debian's python3, which has python3-numpy
    if sys.executable != "/usr/bin/python3" and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    raise


def measure(n, repeats, threads):
    import dpref

    g = np.random.default_rng(1)
    cases = [
        ("laplace", 1.0, lambda: g.laplace(0.0, 1.0, n)),
        ("exponential", 1.0, lambda: g.exponential(1.0, n)),
        ("gaussian", 1.0, lambda: g.normal(0.0, 1.0, n)),
        ("uniform", None, lambda: g.random(n)),
    ]
    rows = []
    for name, param, theirs in cases:
        variants = {
            "numpy": lambda s: theirs(),
            "ziggurat_1": lambda s: dpref.sample(name, n, params=param, seed=s,
                                                 sampler="ziggurat", threads=1),
            "ziggurat_t": lambda s: dpref.sample(name, n, params=param, seed=s,
                                                 sampler="ziggurat", threads=threads),
            "reference": lambda s: dpref.sample(name, n, params=param, seed=s),
        }
        for f in variants.values():  # warm-up (tables, page faults)
            f(0)
        times = {k: [] for k in variants}
        load0 = os.getloadavg()[0]
        for r in range(repeats):
            for k, f in variants.items():
                t = time.perf_counter()
                f(r)
                times[k].append(time.perf_counter() - t)
        med = {k: statistics.median(v) for k, v in times.items()}
        rows.append({"sampler": name, "median_s": med, "load1": [load0, os.getloadavg()[0]],
                     "ratio_1_thread": med["numpy"] / med["ziggurat_1"],
                     "ratio_threads": med["numpy"] / med["ziggurat_t"],
                     "ratio_reference": med["numpy"] / med["reference"]})
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=None, help="build tree whose python/ holds the package")
    ap.add_argument("--n", type=int, default=10 ** 6)
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--threads", type=int, default=0, help="threads of the second ziggurat run")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = ap.parse_args()
    if args.build:
        sys.path.insert(0, os.path.join(args.build, "python"))
    import dpref
    from dpref import _core

    rows = measure(args.n, args.repeats, args.threads)
    if args.json:
        print(json.dumps(rows))
        return
    t = args.threads or os.cpu_count()
    print(f"dpref {dpref.__version__} (ziggurat kernel: {_core.ziggurat_kernel()}), numpy "
          f"{np.__version__}; n = {args.n:.0e}, median of {args.repeats} alternating repeats, "
          f"{os.cpu_count()} cores")
    print(f"| sampler | numpy s | ziggurat 1 thread s (x numpy) | ziggurat {t} threads s (x numpy) "
          f"| reference s (x numpy) | load (1 min) |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        m = r["median_s"]
        print(f"| {r['sampler']} | {m['numpy']:.4f} | {m['ziggurat_1']:.4f} "
              f"({r['ratio_1_thread']:.2f}) | {m['ziggurat_t']:.4f} ({r['ratio_threads']:.2f}) | "
              f"{m['reference']:.4f} ({r['ratio_reference']:.2f}) | "
              f"{r['load1'][0]:.1f} -> {r['load1'][1]:.1f} |")


if __name__ == "__main__":
    main()
