#!/usr/bin/python3
"""The one run contract, checked the same way for every paper (spec/architecture.md).

usage: check_contract.py run|cli DPREF PAPER

run  (ARCH.RUN, ARCH.RESULT, ARCH.JSON): `dpref PAPER run --params examples/PAPER.json` gives a
     result document valid against spec/schema/result.schema.json with one of the five shared
     statuses; a second identical run gives the same bytes (same seed, same bytes); the echoed
     "config" fed back with --params reproduces the run byte for byte (the config is complete).
cli  (ARCH.CLI): the command offers the shared vocabulary (--params, --precision, --out,
     --epsilon, --seed); a flag overrides the --params value and gives the same bytes as the
     same value written in the params file; a NaN budget is refused with exit code 3 and a
     message naming the flag and the value; a missing --params file is refused with exit 3;
     an unknown flag is a usage error (exit 2); --out into a missing folder is refused before
     any work with exit 3 and nothing written.
Exit 0 on success; 1 with a message otherwise.
"""
import json
import pathlib
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from check_output import validator  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
STATUSES = {"completed", "converged", "iteration_limit", "budget_exhausted", "diverged"}


def fail(msg):
    print("check_contract: " + msg)
    sys.exit(1)


def run(dpref, paper, *args, expect=0):
    p = subprocess.run([dpref, paper, "run", *args], capture_output=True, timeout=600)
    if p.returncode != expect:
        fail(f"{paper} run {' '.join(args)}: exit {p.returncode}, expected {expect}\n"
             f"stderr: {p.stderr.decode()[-2000:]}")
    return p


def check_run(dpref, paper, example, tmp):
    a = run(dpref, paper, "--params", str(example)).stdout
    doc = json.loads(a)
    errors = sorted(validator("result").iter_errors(doc), key=lambda e: list(e.path))
    if errors:
        fail(f"{paper}: result schema: {errors[0].message} at {list(errors[0].path)}")
    if doc["paper"] != paper:
        fail(f"{paper}: result names paper {doc['paper']!r}")
    if doc["status"] not in STATUSES:
        fail(f"{paper}: status {doc['status']!r} is not one of {sorted(STATUSES)}")
    if not isinstance(doc["iterations"], int) or doc["iterations"] < 0:
        fail(f"{paper}: iterations {doc['iterations']!r} is not a count")
    if doc["privacy"]["private"] and "ledger" not in doc["privacy"]:
        fail(f"{paper}: a private run without a ledger")
    b = run(dpref, paper, "--params", str(example)).stdout
    if a != b:
        fail(f"{paper}: two runs with the same config gave different bytes")
    echoed = tmp / "echoed.json"
    echoed.write_text(json.dumps(doc["config"]))
    c = run(dpref, paper, "--params", str(echoed)).stdout
    if a != c:
        fail(f"{paper}: the echoed config does not reproduce the run byte for byte")
    print(f"{paper}: schema ok, status {doc['status']}, {doc['iterations']} iterations, "
          f"{len(a)} bytes reproduced by a rerun and by the echoed config")


def check_cli(dpref, paper, example, tmp):
    help_text = run(dpref, paper, "--help").stdout.decode()
    for flag in ("--params", "--precision", "--out", "--epsilon", "--seed"):
        if flag not in help_text:
            fail(f"{paper} run --help does not offer {flag}")
    config = json.loads(example.read_text())
    seed = int(config["seed"]) + 1
    by_flag = run(dpref, paper, "--params", str(example), "--seed", str(seed)).stdout
    config["seed"] = seed
    edited = tmp / "seed.json"
    edited.write_text(json.dumps(config))
    by_file = run(dpref, paper, "--params", str(edited)).stdout
    if by_flag != by_file:
        fail(f"{paper}: --seed {seed} and \"seed\": {seed} in --params give different bytes")
    if json.loads(by_flag)["config"]["seed"] != seed:
        fail(f"{paper}: the result does not echo the seed given by flag")
    bad = run(dpref, paper, "--params", str(example), "--epsilon", "nan", expect=3)
    msg = bad.stderr.decode()
    if "epsilon" not in msg or "nan" not in msg.lower():
        fail(f"{paper}: --epsilon nan refused without naming the flag and value: {msg!r}")
    missing = run(dpref, paper, "--params", str(tmp / "no_such.json"), expect=3)
    if "no_such.json" not in missing.stderr.decode():
        fail(f"{paper}: a missing --params file refused without naming it")
    run(dpref, paper, "--no-such-flag", "1", expect=2)
    out = tmp / "missing_dir" / "r.json"
    refused = run(dpref, paper, "--params", str(example), "--out", str(out), expect=3)
    if out.exists() or "missing_dir" not in refused.stderr.decode():
        fail(f"{paper}: --out into a missing folder not refused up front")
    print(f"{paper}: shared flags offered; flag == params value (seed {seed}); "
          "nan, missing file, unknown flag and bad --out refused")


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("run", "cli"):
        print(__doc__)
        return 2
    mode, dpref, paper = sys.argv[1:]
    example = ROOT / "examples" / f"{paper}.json"
    if not example.exists():
        fail(f"no example config {example}")
    with tempfile.TemporaryDirectory() as d:
        (check_run if mode == "run" else check_cli)(dpref, paper, example, pathlib.Path(d))
    return 0


if __name__ == "__main__":
    sys.exit(main())
