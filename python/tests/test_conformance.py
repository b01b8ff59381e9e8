"""Conformance kit (spec/conformance.md) from Python.

CONF.SELFCHECK: dpref passes its own corpus through the Python checker with the Python reference
adapter (every vector, including the refusals).
CONF.PROTOCOL: `dpref check-vectors DIR --cmd CMD` speaks the protocol to a command — the
reference adapter (`python3 -m dpref.adapter`) passes, and its verdicts equal the Python
checker's.
CONF.NEGATIVE: deliberately wrong implementations fail: an accountant whose Gaussian noise is
1 % larger than stated (sigma off by 1 %: epsilon too small, below the exact value), a
calibrator returning sigma 1 % too small, a sampler off by one ulp per draw — through the
Python checker and through `check-vectors --cmd` (exit code 6)."""
import copy
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import dpref
from dpref import conformance


@pytest.fixture(scope="session")
def corpus(source_dir):
    return source_dir / "data" / "conformance"


def test_python_reference_passes_the_whole_corpus(corpus):
    r = conformance.check(conformance.reference, corpus)
    assert r.vectors > 150
    assert r.passed, str(r)
    worst = r.worst()
    assert worst is not None


def test_family_paths(corpus):
    r = conformance.check(conformance.reference, corpus / "accounting")
    assert r.passed and r.vectors == len(r.results) > 40
    one = conformance.check(conformance.reference, corpus / "random" / "philox")
    assert one.passed and 0 < one.vectors < 20


def wrong_sigma(op, input):
    """A Gaussian accountant / calibrator with sigma off by 1 %."""
    if op == "account":
        ledger = copy.deepcopy(input["ledger"])
        for e in ledger["events"]:
            if e.get("mechanism") == "gaussian":
                e["sigma"] = str(float(e["sigma"]) * 1.01)
        return conformance.reference(op, dict(input, ledger=ledger))
    if op == "calibrate" and input["function"].startswith("gaussian_sigma"):
        v = conformance.reference(op, input)["value"]
        return {"value": float(v) * 0.99}
    return conformance.reference(op, input)


def test_wrong_sigma_fails(corpus):
    r = conformance.check(wrong_sigma, corpus / "accounting")
    failed = {f["id"] for f in r.failures}
    assert failed and all("gaussian" in i or "dp-sgd" in i or "mixed" in i or "million" in i
                          for i in failed)
    assert "accounting/events/gaussian/double" in failed
    assert any("below" in f["problem"] for f in r.failures)
    c = conformance.check(wrong_sigma, corpus / "calibration")
    assert any(f["id"].endswith("gaussian_sigma/double") for f in c.failures)


def one_ulp_off(op, input):
    out = conformance.reference(op, input)
    if op == "sample" and input["distribution"] == "laplace" and input["precision"] == "double":
        out["samples"] = [float(np.nextafter(np.nextafter(x, np.inf), np.inf)) for x in out["samples"]]
    return out


def test_two_ulps_off_sampler_fails(corpus):
    r = conformance.check(one_ulp_off, corpus / "random" / "samplers-double.json")
    assert any("laplace" in f["id"] for f in r.failures)
    assert not any("gaussian" in f["id"] for f in r.failures)


def adapter_cmd(*extra):
    return " ".join([sys.executable, "-m", "dpref.adapter", *extra])


def run_check(cli, path, cmd):
    return cli.run("check-vectors", path, "--cmd", cmd, "--json", check=False)


def test_check_vectors_with_the_reference_adapter(cli, corpus):
    r = run_check(cli, corpus, adapter_cmd())
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["failed"] == 0 and report["vectors"] > 150
    # the CLI's verdicts equal the Python checker's (same C++ comparison)
    py = conformance.check(conformance.reference, corpus / "accounting" / "events.json")
    cli_ev = next(f for f in report["families"] if f["family"] == "accounting/events")
    assert cli_ev["results"] == py.results


def test_check_vectors_fails_a_wrong_adapter(cli, corpus):
    r = run_check(cli, corpus / "accounting", adapter_cmd("--wrong-sigma", "0.01"))
    assert r.returncode == 6
    report = json.loads(r.stdout)
    assert report["failed"] > 0
    assert "conformance check failed" in r.stderr


def test_check_vectors_in_process(cli, corpus):
    r = cli.run("check-vectors", corpus, check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "vectors passed" in r.stdout


def test_serve_protocol_roundtrip(corpus, tmp_path):
    fam = json.loads((corpus / "random" / "philox.json").read_text())
    req = {"protocol": conformance.PROTOCOL,
           "vectors": [{"id": v["id"], "op": v["op"], "input": v["input"]} for v in fam["vectors"]]}
    p = subprocess.run([sys.executable, "-m", "dpref.adapter"], input=json.dumps(req),
                       capture_output=True, text=True, env=os.environ.copy())
    assert p.returncode == 0, p.stderr
    resp = json.loads(p.stdout)
    assert resp["protocol"] == conformance.PROTOCOL
    assert [r["id"] for r in resp["results"]] == [v["id"] for v in fam["vectors"]]
    assert all("output" in r for r in resp["results"])
