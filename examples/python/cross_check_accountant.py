#!/usr/bin/env python3
"""Cross-check a privacy accountant against dpref (spec/python.md PY.EXAMPLES).

Run: PYTHONPATH=build/release/python python3 examples/python/cross_check_accountant.py

"Your" accountant here is a direct mpmath implementation of DP-SGD's Rényi accounting: the
Poisson-subsampled Gaussian RDP of Mironov, Talwar & Zhang (integer orders), composed over the
steps and converted to (epsilon, delta) by the Balle et al. 2020 rule. It is compared with
dpref.account on the same ledger (dpref's value is a certified upper bound: the two must agree
to many digits and dpref's must not be below), then run through the conformance vectors of the
Gaussian events. Exits with status 1 if a check fails.
"""
import functools
import sys

import mpmath

import dpref

mpmath.mp.prec = 300
q, sigma, steps, delta, max_order = mpmath.mpf(1) / 128, mpmath.mpf("1.125"), 10000, mpmath.mpf(2) ** -17, 256


def mtz_rdp(alpha):
    s = mpmath.fsum(mpmath.binomial(alpha, k) * (1 - q) ** (alpha - k) * q ** k *
                    mpmath.exp((k * k - k) / (2 * sigma ** 2)) for k in range(alpha + 1))
    return mpmath.log(s) / (alpha - 1)


@functools.lru_cache(maxsize=None)
def epsilon_cached(q_, sigma_, steps_, delta_, top):
    global q, sigma, steps, delta
    q, sigma, steps, delta = q_, sigma_, steps_, delta_
    return epsilon(range(2, top + 1))


def epsilon(orders=range(2, max_order + 1)):
    best = None
    for a in orders:
        e = steps * mtz_rdp(a) + mpmath.log((a - 1) / mpmath.mpf(a)) - (mpmath.log(delta) + mpmath.log(a)) / (a - 1)
        best = e if best is None or e < best else best
    return best


mine = epsilon_cached(q, sigma, steps, delta, max_order)
ledger = [{"mechanism": "gaussian", "sensitivity": 1, "sigma": "1.125", "count": steps,
           "sampling": {"scheme": "poisson", "rate": "0.0078125", "neighbouring": "add_remove"}}]
d = dpref.account(ledger, delta="0.00000762939453125")["guarantee"]["epsilon"]
m = mpmath.mpf(dpref.account(ledger, delta="0.00000762939453125", precision="mp50")["guarantee"]["epsilon"])
rel = float(abs(m - mine) / mine)
print(f"mpmath accountant   epsilon = {mpmath.nstr(mine, 25)}")
print(f"dpref mp50          epsilon = {mpmath.nstr(m, 25)}  (relative difference {rel:.2g})")
print(f"dpref double        epsilon = {d!r}  (certified: >= exact)")
ok = rel < 1e-30 and d >= mine and m >= mine

# the conformance corpus shipped with the package (data/conformance of the repository)
corpus = dpref.data_dir() / "conformance" / "accounting" / "events.json"
if corpus.exists():
    ids = ["accounting/events/gaussian-poisson-mtz/double", "accounting/events/gaussian-poisson-mtz/mp50"]

    def implementation(op, input):
        ev, opt = input["ledger"]["events"][0], input["ledger"]["accounting"]
        e = epsilon_cached(mpmath.mpf(ev["sampling"]["rate"]), mpmath.mpf(ev["sigma"]),
                           ev["count"], mpmath.mpf(opt["delta"]), opt["max_order"])
        # a certified accountant at precision p reports a p-bit number >= the exact value: round
        # the 300-bit value (accurate to ~1e-85) up, with a margin, to the vector's precision
        bits = dpref.precision_bits(input["precision"])
        up = mpmath.mpf(mpmath.libmp.mpf_pos((e * (1 + mpmath.mpf(10) ** -80))._mpf_, bits, "c"))
        return {"epsilon": mpmath.nstr(up, 80), "delta": str(mpmath.mpf(opt["delta"]))}

    r = dpref.conformance.check(implementation, corpus, ids=ids)
    print(f"conformance vectors of the subsampled Gaussian: {r.vectors - len(r.failures)} of {r.vectors} pass")
    for f in r.failures:
        print("  FAIL", f["id"], f.get("problem"))
    for x in r.results:
        if x.get("worst"):
            print(f"  {x['id']}: {x['worst']['error']:.3g} {x['worst']['unit']} above the exact value")
    ok &= r.passed
sys.exit(0 if ok else 1)
