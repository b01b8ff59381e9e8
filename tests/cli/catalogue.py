#!/usr/bin/python3
"""The bad-input catalogue (spec/hardening.md HARD.CATALOGUE): every case runs one dpref command
that must be refused. For each case the runner asserts
  - a non-zero exit status, equal to the case's "exit" (2 usage, 3 invalid input, 4 budget
    exceeded, 5 audit violation) — never 0 (silent acceptance) and never a signal (crash);
  - stderr matches the case's "message" regex (which names the argument and the value) and
    contains no stack trace or internal-error marker;
  - the process stays under a memory limit (address space, default 4 GiB) and a time limit
    (default 60 s): no hang, no unbounded allocation.
Cases are JSON lines in tests/cli/catalogue/*.jsonl:
  {"id": "account-unknown-key", "args": ["account", "@DATA/bad_key.json"], "exit": 3,
   "message": "unknown key \\"Count\\""}
"@DATA/" is replaced by tests/cli/catalogue/data/, "@TMP/" by a fresh temporary folder.

usage: catalogue.py DPREF [--only FILE] [--mem-mb N] [--timeout S]
Prints one line per failure and a summary; exit 1 if any case fails.
"""
import argparse
import json
import pathlib
import re
import resource
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent / "catalogue"
FORBIDDEN = re.compile(r"terminate called|Segmentation fault|AddressSanitizer|runtime error:|"
                       r"Assertion .* failed|internal error|std::bad_alloc|what\(\):")


def limits(mem_mb):
    def apply():
        b = mem_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (b, b))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return apply


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dpref")
    ap.add_argument("--only")
    ap.add_argument("--mem-mb", type=int, default=4096)
    ap.add_argument("--timeout", type=float, default=60)
    a = ap.parse_args()
    files = sorted(HERE.glob("*.jsonl"))
    if a.only:
        files = [f for f in files if f.name == a.only or f.stem == a.only]
    total = failed = 0
    counts = {}
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="dpref_catalogue_"))
    seen = set()
    try:
        for f in files:
            for lineno, line in enumerate(f.read_text().splitlines(), 1):
                if not line.strip() or line.lstrip().startswith("//"):
                    continue
                case = json.loads(line)
                cid = case["id"]
                if cid in seen:
                    print(f"FAIL {f.name}:{lineno} duplicate id {cid}")
                    failed += 1
                    continue
                seen.add(cid)
                total += 1
                args = [s.replace("@DATA/", str(HERE / "data") + "/").replace("@TMP/", str(tmp) + "/")
                        for s in case["args"]]
                try:
                    r = subprocess.run([a.dpref] + args, capture_output=True, text=True,
                                       errors="replace", timeout=case.get("timeout", a.timeout),
                                       preexec_fn=limits(case.get("mem_mb", a.mem_mb)))
                except subprocess.TimeoutExpired:
                    print(f"FAIL {cid}: hang (no exit within {a.timeout} s)")
                    failed += 1
                    counts["hang"] = counts.get("hang", 0) + 1
                    continue
                why = None
                if r.returncode == 0:
                    why, kind = "accepted silently (exit 0)", "silent"
                elif r.returncode < 0:
                    why, kind = f"crashed (signal {-r.returncode})", "crash"
                elif r.returncode != case["exit"]:
                    why, kind = f"exit {r.returncode}, expected {case['exit']}", "exit"
                elif FORBIDDEN.search(r.stderr):
                    why, kind = "stack trace / internal error on stderr", "unclear"
                elif not re.search(case["message"], r.stderr):
                    why, kind = f"message does not match /{case['message']}/", "unclear"
                if why:
                    failed += 1
                    counts[kind] = counts.get(kind, 0) + 1
                    print(f"FAIL {cid}: {why}\n  args: {args}\n  stderr: {r.stderr.strip()[:400]}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"catalogue: {total} cases, {total - failed} refused clearly, {failed} failed "
          f"({', '.join(f'{k} {v}' for k, v in sorted(counts.items())) or 'none'})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
