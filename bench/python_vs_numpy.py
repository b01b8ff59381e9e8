#!/usr/bin/env python3
"""Batch sampling throughput of the dpref Python package against numpy's Generator, measured in
one run of this script (spec/python.md PY.BENCH).

usage: python3 bench/python_vs_numpy.py [--build build/release] [--n 10000000] [--repeats 7]

For each sampler it times `dpref.sample(dist, n, seed=...)` (reference samples, bit-identical to
the scalar C++ sampler and to `dpref sample`) and numpy's `Generator` method with the same n,
alternating the two, and prints the median time of each and the ratio numpy / dpref (> 1: dpref
is faster). Uses Debian's /usr/bin/python3 when the current interpreter lacks numpy.
"""
import argparse
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=None, help="build tree whose python/ holds the package")
    ap.add_argument("--n", type=int, default=10 ** 7)
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    if args.build:
        sys.path.insert(0, os.path.join(args.build, "python"))
    import dpref
    from dpref import _core

    g = np.random.default_rng(1)
    n = args.n
    cases = [
        ("laplace", lambda s: dpref.sample("laplace", n, params=1.0, seed=s),
         lambda: g.laplace(0.0, 1.0, n)),
        ("exponential", lambda s: dpref.sample("exponential", n, params=1.0, seed=s),
         lambda: g.exponential(1.0, n)),
        ("uniform", lambda s: dpref.sample("uniform", n, seed=s), lambda: g.random(n)),
    ]
    print(f"dpref {dpref.__version__} (batch kernel: "
          f"{'AVX-512' if _core.avx512_available() else 'portable'}), numpy {np.__version__}; "
          f"n = {n:.0e}, median of {args.repeats} alternating repeats")
    print(f"| sampler | dpref s | numpy s | numpy / dpref |")
    print(f"|---|---|---|---|")
    ratios = {}
    for name, ours, theirs in cases:
        ours(0), theirs()  # warm-up (tables, page faults)
        to, tt = [], []
        for r in range(args.repeats):
            t = time.perf_counter()
            ours(r)
            to.append(time.perf_counter() - t)
            t = time.perf_counter()
            theirs()
            tt.append(time.perf_counter() - t)
        mo, mt = statistics.median(to), statistics.median(tt)
        ratios[name] = mt / mo
        print(f"| {name} | {mo:.4f} | {mt:.4f} | {mt / mo:.2f} |")
    print(f"laplace ratio (numpy time / dpref time): {ratios['laplace']:.2f}")


if __name__ == "__main__":
    main()
