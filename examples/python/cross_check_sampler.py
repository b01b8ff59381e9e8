#!/usr/bin/env python3
"""Cross-check a sampler against dpref (spec/python.md PY.EXAMPLES).

Run: PYTHONPATH=build/release/python python3 examples/python/cross_check_sampler.py

1. Re-implement dpref's double uniform from the raw Philox words (spec/random.md
   RAND.REIMPLEMENT: U = (K + 1/2) 2^-64 truncated to 53 bits) and compare bit for bit.
2. "Your" Laplace sampler — here a plain numpy inversion of the same stream words — against
   dpref's 50-digit reference samples of the same addresses: the error in ulps of each draw.
3. The distribution: Kolmogorov–Smirnov against scipy.stats.laplace (false alarm 1e-6).
4. The conformance corpus: dpref.conformance.check runs the samplers family on your sampler.
Exits with status 1 if a check fails.
"""
import sys

import mpmath
import numpy as np
from scipy import stats

import dpref

SEED, N = 20261121, 4096
ok = True

# 1. uniform from words: K = lane-0 word, U = (2K + 1) / 2^65 truncated to 53 significant bits
words = dpref.philox_words(N, seed=SEED)
mine = np.empty(N)
for i, k in enumerate(words.tolist()):
    m = 2 * k + 1                              # odd, up to 65 bits: U = m 2^-65
    shift = max(m.bit_length() - 53, 0)
    mine[i] = float((m >> shift) << shift) * 2.0 ** -65   # truncate, then scale (exact)
ref = dpref.sample("uniform", N, seed=SEED)
same = np.array_equal(mine.view(np.uint64), ref.view(np.uint64))
print(f"1. uniform from Philox words: {'bit for bit' if same else 'DIFFERENT'} ({N} draws)")
ok &= same


# 2. a numpy Laplace(b) from the words: sign = first bit, |x| = -b log(U') with U' from the rest
def my_laplace(words, b):
    w = words.astype(np.uint64)
    sign = np.where(w >> np.uint64(63), -1.0, 1.0)
    rest = (w << np.uint64(1)) >> np.uint64(11)          # 53 bits after the sign bit
    u = (rest.astype(np.float64) + 0.5) * 2.0 ** -53      # uniform on (0, 1)
    # plain -log(u); dpref folds u into t or 1 - t to keep full precision in both tails
    return sign * b * (-np.log(u))


b = 1.5
x = my_laplace(words, b)
exact = dpref.sample("laplace", N, params={"b": "1.5"}, seed=SEED, precision="mp50")
with mpmath.workprec(200):
    errs = []
    for xi, ei in zip(x, exact):
        ulp = mpmath.mpf(2) ** (mpmath.floor(mpmath.log(abs(ei), 2)) - 52)
        errs.append(float(abs(mpmath.mpf(xi) - ei) / ulp))
errs = np.array(errs)
print(f"2. numpy Laplace vs dpref mp50 (same draws): median {np.median(errs):.3g} ulps, "
      f"max {errs.max():.3g} ulps (dpref's own double sampler is within 1 ulp)")
dd = dpref.sample("laplace", N, params={"b": "1.5"}, seed=SEED)
with mpmath.workprec(200):
    own = max(float(abs(mpmath.mpf(d) - e) / mpmath.mpf(2) ** (mpmath.floor(mpmath.log(abs(e), 2)) - 52))
              for d, e in zip(dd, exact))
print(f"   dpref double vs dpref mp50: max {own:.3g} ulps")
ok &= own <= 1.0

# 3. distribution
big = dpref.sample("laplace", 10 ** 5, params={"b": 1.5}, seed=SEED + 1)
p = stats.kstest(big, stats.laplace(scale=1.5).cdf).pvalue
print(f"3. KS test of 10^5 dpref Laplace(1.5) draws: p = {p:.3g} (rejected if < 1e-6)")
ok &= p > 1e-6

# 4. the conformance corpus shipped with the package (data/conformance of the repository)
corpus = dpref.data_dir() / "conformance" / "random" / "samplers-double.json"
if corpus.exists():
    def implementation(op, input):
        if op == "sample" and input["distribution"] == "laplace" and input["precision"] == "double":
            a = input["address"]
            w = dpref.philox_words(input["count"], seed=a["seed"], stream=a["stream"],
                                   substream=a["substream"], position=a["position"])
            return {"samples": my_laplace(w, float(input["params"]["b"])).tolist()}
        raise NotImplementedError(f"{op} {input.get('distribution')}")

    ids = [v["id"] for v in __import__("json").loads(corpus.read_text())["vectors"]
           if v["input"]["distribution"] == "laplace"]
    r = dpref.conformance.check(implementation, corpus, ids=ids)
    print(f"4. conformance (laplace vectors): {r.vectors - len(r.failures)} of {r.vectors} pass "
          f"with the numpy sampler (it is not faithful: expected to fail some)")
    r2 = dpref.conformance.check(dpref.conformance.reference, corpus, ids=ids)
    print(f"   dpref itself: {r2.vectors - len(r2.failures)} of {r2.vectors} pass")
    ok &= r2.passed
sys.exit(0 if ok else 1)
