#!/usr/bin/env python3
"""An outside implementation checked against the conformance corpus (spec/conformance.md
"Checking an outside implementation"; spec/python.md PY.EXAMPLES).

Run: PYTHONPATH=build/full/python python3 examples/python/outsider_accountant.py

"Your" implementation is a plain numpy (float64) Rényi accountant of the Gaussian mechanism
without subsampling: RDP alpha*count*(sensitivity/sigma)^2/2 at the integer orders
2..max_order, converted to (epsilon, delta) by Mironov's rule or Balle et al. 2020's. It claims
double precision only and answers Unsupported for everything else (other mechanisms,
subsampling, other ops), so those vectors are counted apart — never as passed nor as failed.

It is checked twice: computed naively, its epsilon is sometimes a rounding below the exact
value, which a certified upper bound must never be (the checker reports "BELOW the exact
value"); rounded up by a few ulps (np.nextafter), it passes every vector it supports. Exits
with status 1 unless that is what happens.
"""
import sys

import numpy as np

import dpref
from dpref import conformance


def gaussian_rdp_epsilon(ledger, round_up):
    acc = ledger["accounting"]
    if acc.get("method") != "rdp" or acc.get("conversion") not in ("mironov", "balle2020"):
        raise conformance.Unsupported(f"accounting {acc}")
    delta = float(acc["delta"])
    alpha = np.arange(2, int(acc["max_order"]) + 1, dtype=np.float64)
    rdp = np.zeros_like(alpha)
    for e in ledger["events"]:
        if e.get("mechanism") != "gaussian" or "sampling" in e:
            raise conformance.Unsupported(f"event {e.get('mechanism')} {e.get('sampling', '')}")
        sigma, sens, count = float(e["sigma"]), float(e.get("sensitivity", 1)), int(e["count"])
        if not (sigma > 0 and sens > 0 and count > 0):
            raise ValueError("sigma, sensitivity and count must be positive")
        rdp += count * alpha * sens * sens / (2 * sigma * sigma)
    if not delta > 0:
        raise ValueError("a Gaussian ledger needs delta > 0")
    if acc["conversion"] == "mironov":
        eps = rdp + np.log(1 / delta) / (alpha - 1)
    else:
        eps = rdp + np.log((alpha - 1) / alpha) - (np.log(delta) + np.log(alpha)) / (alpha - 1)
    best = float(eps.min())
    if round_up:  # a few float64 roundings lie below: four ulps up covers them
        for _ in range(4):
            best = float(np.nextafter(best, np.inf))
    return best


def implementation(round_up):
    def answer(op, input):
        if op != "account":
            raise conformance.Unsupported(f"op {op}")
        ledger = input["ledger"]
        return {"epsilon": gaussian_rdp_epsilon(ledger, round_up),
                "delta": float(ledger["accounting"]["delta"])}
    return answer


# the corpus shipped with this installation (wheel, cmake --install or the build tree)
accounting = dpref.data_dir() / "conformance" / "accounting"

naive = conformance.check(implementation(False), accounting, precision="double")
print("naive float64 accountant:")
print(naive)
rounded = conformance.check(implementation(True), accounting, precision="double")
print("\nthe same, epsilon rounded up by four ulps:")
print(rounded)

ok = (rounded.checked > 0 and not rounded.failures and rounded.unsupported
      and all(r["wrong_side"] for r in naive.failures if "below" in r.get("problem", "").lower())
      and any(r.get("wrong_side") for r in naive.failures))
sys.exit(0 if ok else 1)
