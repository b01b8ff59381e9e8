#!/usr/bin/python3
"""spec/hardening.md HARD.AUDIT_FLAGS: `dpref audit`'s text report never rounds toward the
reader's disadvantage. The claim (ε, δ) is printed rounded up, the lower bound ε_lb and the
Clopper–Pearson lower limit rounded down, the upper limit rounded up — compared exactly
(fractions.Fraction) with the every-digit values of the same run's --json report.

usage: check_audit_text.py DPREF [--tamper]
  --tamper: negative control — the printed ε_lb is replaced by the exact value rounded UP to 5
  digits before the checks, which must then fail.
"""
import math
import json
import re
import subprocess
import sys
from fractions import Fraction

dpref = sys.argv[1]
tamper = "--tamper" in sys.argv[2:]
failures = []
for mech, extra in [("laplace", []), ("gaussian", ["--delta", "1e-5", "--epsilon", "0.7"]),
                    ("laplace-half-scale", ["--epsilon", "0.3"])]:
    args = [dpref, "audit", mech, "--samples", "200000", *extra]
    text = subprocess.run(args, capture_output=True, text=True).stdout
    j = json.loads(subprocess.run(args + ["--json"], capture_output=True, text=True).stdout)
    claimed = re.search(r"claimed\s+eps = (\S+), delta = (\S+)", text)
    eps_lb = re.search(r"eps_lb\s+(\S+)", text)
    cp = re.search(r"CP bounds (\S+) / (\S+)\)", text)
    if not (claimed and eps_lb and cp):
        failures.append(f"{mech}: report lines missing:\n{text}")
        continue
    pair = max(j["pairs"], key=lambda p: p["epsilon_lower_bound"])
    lb_text = eps_lb[1]
    if tamper:
        exact = j["epsilon_lower_bound"]
        e = math.floor(math.log10(abs(exact)))
        lb_text = str(Fraction(math.ceil(Fraction(exact) / Fraction(10) ** (e - 4))) *
                      Fraction(10) ** (e - 4))
        lb_text = f"{float(Fraction(lb_text)):.17g}"
    checks = [
        ("claimed eps", Fraction(claimed[1]) >= Fraction(j["epsilon_claimed"])),
        ("claimed delta", Fraction(claimed[2]) >= Fraction(j["delta_claimed"])),
        ("eps_lb", Fraction(lb_text) <= Fraction(j["epsilon_lower_bound"])),
        ("CP lower", Fraction(cp[1]) <= Fraction(pair["p_lower"])),
        ("CP upper", Fraction(cp[2]) >= Fraction(pair["p_upper"])),
    ]
    for name, ok in checks:
        if not ok:
            failures.append(f"{mech}: {name} printed on the wrong side of the exact value")
    # the printed lower bound is close to the exact one (5 significant digits)
    if abs(Fraction(eps_lb[1]) - Fraction(j["epsilon_lower_bound"])) > Fraction(1, 10**4) * max(
            1, abs(Fraction(j["epsilon_lower_bound"]))):
        failures.append(f"{mech}: eps_lb {eps_lb[1]} far from {j['epsilon_lower_bound']}")
bad = {f.split(":")[0] for f in failures}
print(f"check_audit_text: {3 - len(bad)} of 3 reports rounded conservatively")
for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
