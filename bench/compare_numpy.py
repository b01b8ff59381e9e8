#!/usr/bin/env python3
"""Side-by-side sampler throughput: dpref (Google Benchmark, median of repetitions) and numpy's
Generator (median of 5 runs of 10^7 draws), measured by this one script, reported as ratios.

usage: python3 bench/compare_numpy.py build/bench/bench/samplers_bench [--repetitions 5]
Uses Debian's /usr/bin/python3 with python3-numpy when the current python lacks numpy.
"""
import json
import os
import statistics
import subprocess
import sys
import time

try:
    import numpy as np
except ImportError:  # re-run under Debian's python3, which has python3-numpy
    if sys.executable != "/usr/bin/python3" and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    raise

N = 10**7


def numpy_ns_per_draw(fn, runs=5):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) / N * 1e9


def dpref_ns_per_item(binary, repetitions):
    out = subprocess.run(
        [binary, "--benchmark_format=json", f"--benchmark_repetitions={repetitions}",
         "--benchmark_report_aggregates_only=true", "--benchmark_min_time=0.2"],
        check=True, capture_output=True, text=True).stdout
    result = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") == "median":
            name = b["run_name"]
            result[name] = 1e9 / b["items_per_second"]
    return result


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    binary = sys.argv[1]
    reps = int(sys.argv[sys.argv.index("--repetitions") + 1]) if "--repetitions" in sys.argv else 5
    g = np.random.default_rng(1)
    ref = {
        "laplace": numpy_ns_per_draw(lambda: g.laplace(0.0, 1.0, N)),
        "exponential": numpy_ns_per_draw(lambda: g.exponential(1.0, N)),
        "gaussian": numpy_ns_per_draw(lambda: g.normal(0.0, 1.0, N)),
    }
    ours = dpref_ns_per_item(binary, reps)
    rows = [
        ("laplace", "BM_fast_laplace", "BM_laplace<double>", "BM_laplace<long double>", "BM_laplace<mp50>"),
        ("exponential", "BM_fast_exponential", "BM_exponential<double>", "BM_exponential<long double>",
         "BM_exponential<mp50>"),
        ("gaussian", "BM_fast_gaussian", "BM_gaussian<double>", "BM_gaussian<long double>", "BM_gaussian<mp50>"),
    ]
    print(f"numpy {np.__version__}, {N:.0e} draws per run; dpref median of {reps} repetitions")
    print("| sampler | numpy ns | fast double ns (x numpy) | reference double ns (x numpy) | long double ns | mp50 ns (mp50 / ref double) |")
    print("|---|---|---|---|---|---|")
    for name, fast, dbl, ld, mp in rows:
        n = ref[name]
        print(f"| {name} | {n:.2f} | {ours[fast]:.2f} ({n / ours[fast]:.2f}x) | {ours[dbl]:.2f} ({n / ours[dbl]:.2f}x) "
              f"| {ours[ld]:.2f} | {ours[mp]:.0f} ({ours[mp] / ours[dbl]:.0f}x) |")
    print("\nAll dpref medians (ns per sample):")
    for k in sorted(ours):
        print(f"  {k:40s} {ours[k]:12.2f}")


if __name__ == "__main__":
    main()
