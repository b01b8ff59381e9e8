#!/usr/bin/env python3
"""ARCH.INSTALL / PY.WHEEL: a `dpref reproduce` report written by an installed dpref found every
input it reads relative to the installation: no claim or performance row failed because a file
was not found (an example configuration of the performance rows, the committed data subset of
the linesearch claims, the data folder itself), the linesearch claims ran, the sampler rows
imported the Python package installed with the binary, and report.html was written by the
installed report scripts. Jobs that failed for another reason are listed as notes:
whether the claims hold is REPRO_quick's subject, not this check's.

usage: check_report.py <report dir>"""
import json
import pathlib
import sys

out = pathlib.Path(sys.argv[1])
r = json.loads((out / "report.json").read_text())
failed = [(f"claim {c['id']}", c["summary"]) for c in r["claims"]
          if c["summary"].startswith("failed to run")]
failed += [(f"performance row {p['name']}", p["note"]) for p in r["performance"]
           if p["note"].startswith("absent: failed")]
errors = [f"{what}: {why}" for what, why in failed if "not found" in why]
notes = [f"{what}: {why}" for what, why in failed if "not found" not in why]
# the sampler rows import the Python package installed with the binary (found relative to it)
errors += [f"performance row {p['name']}: {p['note']}" for p in r["performance"]
           if "dpref Python package is not importable" in p["note"]]
ls = [c["id"] for c in r["claims"] if c["paper"] == "linesearch"]
if not ls:
    errors.append("no linesearch claim")
errors += [f"claim {c['id']} did not run: {c['summary']}" for c in r["claims"]
           if c["paper"] == "linesearch" and c["summary"].startswith("failed to run")]
html = out / "report.html"
if not html.exists() or html.stat().st_size < 1000:
    errors.append("no report.html")
for n in notes:
    print(f"note (not an installation problem): {n}")
if errors:
    print("\n".join("FAIL: " + e for e in errors))
    sys.exit(1)
print(f"report: {len(r['claims'])} claims ({', '.join(ls)}), {len(r['performance'])} performance "
      f"rows, every input found; report.html {html.stat().st_size // 1024} KiB")
