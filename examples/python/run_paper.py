"""Run a paper's algorithm from Python and plot its objective trace (spec/python.md PY.PAPERS).

    PYTHONPATH=build/rel/python python3 examples/python/run_paper.py [--out trace.png]

Runs pwa's private subgradient method (pwa Algorithm 1: x^(i+1) = x^(i) - step * (g^(i) + noise))
on the shipped example (examples/pwa.json) through dpref.pwa.run, with an override of one
parameter by name; checks that

  1. the privacy ledger of the run re-accounts with dpref.account to the guarantee the run
     reports, bit for bit, and that guarantee is within the requested budget;
  2. the objective trace (a non-private diagnostic: asked for with diagnostics=True, reported
     under non_private, not covered by the guarantee) is a float64 array with one value per
     iteration, equal to the JSON;
  3. the same seed gives the same bytes, another seed a different release;

and plots the (non-private) objective trace with matplotlib's Agg backend to a temporary PNG
(or --out). Exit status 0 when every check holds.
"""
import argparse
import json
import os
import sys
import tempfile

import numpy as np

import dpref

ROOT = dpref.data_dir()  # the files shipped with the package: examples/pwa.json


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", help="PNG of the objective trace (default: a temporary file)")
    args = ap.parse_args()

    with open(ROOT / "examples" / "pwa.json") as f:
        config = json.load(f)
    config["params"]["optimum"] = False
    # keyword arguments override fields of config["params"] by name; the objective trace is a
    # function of the private data without noise: a private run computes it only when asked
    r = dpref.pwa.run(config, trace=True, diagnostics=True, iterations=200, epsilon=0.5)
    print(f"{r.paper}/{r.algorithm}: status {r.status}, {r.iterations} iterations")

    # 1. the ledger re-accounts to the reported guarantee, bit for bit
    g = r.privacy["guarantee"]
    a = r.ledger.account()
    print(f"guarantee: epsilon = {g['epsilon']!r}, delta = {g['delta']!r}; "
          f"re-accounted: epsilon = {a['guarantee']['epsilon']!r}")
    assert a["guarantee"]["epsilon"] == g["epsilon"] and a["guarantee"]["delta"] == g["delta"]
    assert g["epsilon"] <= 0.5 and r.privacy["budget_met"]

    # 2. the trace: one objective value per iteration, a float64 array equal to the JSON
    trace = r.non_private["objective_trace"]
    assert isinstance(trace, np.ndarray) and trace.dtype == np.float64
    assert np.array_equal(trace,
                          np.asarray(r.to_json()["non_private"]["objective_trace"], dtype=float))
    assert r.trace is None and "not covered" in r.non_private["note"]
    assert trace.size >= r.iterations, (trace.size, r.iterations)
    print(f"objective: first {trace[0]:.6g}, last {trace[-1]:.6g}, min {trace.min():.6g}")

    # 3. reproducible; another seed releases another x
    again = dpref.pwa.run(config, trace=True, diagnostics=True, iterations=200, epsilon=0.5)
    assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(r.to_json(), sort_keys=True)
    other = dpref.pwa.run(dict(config, seed=config["seed"] + 1), iterations=200, epsilon=0.5)
    assert not np.array_equal(other.iterates["x"], r.iterates["x"])

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = args.out or os.path.join(tempfile.mkdtemp(prefix="dpref_run_paper_"), "trace.png")
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(np.arange(1, trace.size + 1), trace)
    ax.set_xlabel("iteration i")
    ax.set_ylabel("f(x^(i)) (non-private diagnostic)")
    ax.set_title(f"pwa private subgradient, epsilon = {g['epsilon']:.3g}")
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
    assert os.path.getsize(out) > 1000
    print(f"plot: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
