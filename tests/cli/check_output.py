#!/usr/bin/python3
"""Runs a dpref command, validates its JSON output against a schema of spec/schema/ and,
for `run` results, re-accounts the run's ledger with `dpref account` (ACC.LEDGER.ROUNDTRIP):
the guarantee must equal the run's bit for bit (numbers are compared exactly: a double is
printed with the shortest text that round-trips; other precisions as full-digit strings).

usage: check_output.py --schema result|account [--roundtrip DPREF --precision P] -- CMD...
Exit 0 on success; 1 with a message otherwise.
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

import jsonschema

ROOT = pathlib.Path(__file__).resolve().parents[2]


def load_schema(name):
    return json.loads((ROOT / "spec" / "schema" / f"{name}.schema.json").read_text())


def validator(name):
    store = {}
    for p in (ROOT / "spec" / "schema").glob("*.schema.json"):
        s = json.loads(p.read_text())
        store[s["$id"]] = s
    schema = load_schema(name)
    resolver = jsonschema.RefResolver.from_schema(schema, store=store)
    return jsonschema.Draft202012Validator(schema, resolver=resolver)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--schema", required=True)
    ap.add_argument("--roundtrip")
    ap.add_argument("--precision", default="double")
    ap.add_argument("--expect", action="append", default=[],
                    help="KEY=VALUE: a top-level string field that must have this value")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        print(f"command failed (exit {run.returncode}): {' '.join(cmd)}\n{run.stderr}")
        return 1
    doc = json.loads(run.stdout, parse_float=lambda t: float(t))
    errors = sorted(validator(a.schema).iter_errors(doc), key=lambda e: list(e.path))
    for e in errors[:10]:
        print(f"schema {a.schema}: /{'/'.join(map(str, e.path))}: {e.message[:300]}")
    if errors:
        return 1
    for kv in a.expect:
        k, v = kv.split("=", 1)
        if str(doc.get(k)) != v:
            print(f"expected {k} = {v}, got {doc.get(k)}")
            return 1
    if a.roundtrip:
        priv = doc["privacy"]
        if not priv["private"]:
            print("roundtrip: the run is not private (nothing to re-account)")
            return 1
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(priv["ledger"], f)
            path = f.name
        acc = subprocess.run([a.roundtrip, "account", path, "--json", "--precision", a.precision],
                             capture_output=True, text=True)
        pathlib.Path(path).unlink()
        if acc.returncode != 0:
            print(f"dpref account failed (exit {acc.returncode}): {acc.stderr}")
            return 1
        got = json.loads(acc.stdout)["guarantee"]
        want = priv["guarantee"]
        for k in ("epsilon", "delta"):
            if got[k] != want[k] or type(got[k]) is not type(want[k]):
                print(f"roundtrip: {k} re-accounted = {got[k]!r}, run reported {want[k]!r}")
                return 1
        print(f"roundtrip ok: epsilon = {want['epsilon']}, delta = {want['delta']}")
    print(f"schema {a.schema}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
