#!/usr/bin/python3
"""REPRO_RESUME_check (spec/reproduce.md REPRO.RESUME): `dpref reproduce --resume`.

usage: check_resume.py DPREF OUTDIR

1. A run of two quick claims (DDA-E1, REPRO.ACC.EXACT) under DPREF_GIT_COMMIT=resume-test-1
   writes OUTDIR/progress.json with both jobs and a report without `resumed_jobs`.
2. The second job is removed from progress.json (an interrupted run). `--resume` must take the
   first job from the file (timings: resumed, report: resumed_jobs = 1, its claim row identical),
   run the second again (same verdict and numbers: the claims are deterministic), validate against
   the schema, and leave a progress.json with both jobs.
3. Refusals before any work (exit 3, message naming progress.json or the commit): another commit,
   a "-dirty" commit, the other mode, a stored claim whose verdict is not its settled statistic,
   no progress.json. A negative control of the check itself: a resumed run with no job removed
   must re-run nothing (otherwise the check of step 2 could pass by re-running everything).
Every failure raises AssertionError (exit status 1).
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys

import jsonschema

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLAIMS = "DDA-E1,REPRO.ACC.EXACT"


def fail(msg):
    raise AssertionError(msg)


def run(dpref, out, commit, *extra, mode="--quick"):
    env = dict(os.environ, DPREF_GIT_COMMIT=commit)
    argv = [dpref, "reproduce", mode, "--claims", CLAIMS, "--no-html", "--out", str(out), *extra]
    return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600)


def load(out, name):
    return json.loads((out / name).read_text())


def rows(rep):
    return {c["id"]: c for c in rep["claims"]}


def main(dpref, outdir):
    out = pathlib.Path(outdir)
    shutil.rmtree(out, ignore_errors=True)
    schema = json.loads((ROOT / "spec" / "schema" / "report.schema.json").read_text())
    p = run(dpref, out, "resume-test-1")
    if p.returncode != 0:
        fail(f"first run: exit {p.returncode}: {p.stderr[-1500:]}")
    first, prog = load(out, "report.json"), load(out, "progress.json")
    jobs = [e["job"] for e in prog["jobs"]]
    if jobs != ["dda/DDA-E1", "accounting/REPRO.ACC.EXACT"] or prog["commit"] != "resume-test-1":
        fail(f"progress.json after a full run: jobs {jobs}, commit {prog['commit']!r}")
    if "resumed_jobs" in first:
        fail("a run without --resume reports resumed_jobs")
    print(f"ok: first run stored {jobs}")

    prog["jobs"] = prog["jobs"][:1]  # interrupted after the first job
    (out / "progress.json").write_text(json.dumps(prog))
    p = run(dpref, out, "resume-test-1", "--resume")
    if p.returncode != 0:
        fail(f"--resume: exit {p.returncode}: {p.stderr[-1500:]}")
    second = load(out, "report.json")
    jsonschema.validate(second, schema)
    resumed = {t["job"]: t.get("resumed", False) for t in second["timings"]["jobs"]}
    if second.get("resumed_jobs") != 1 or resumed != {"dda/DDA-E1": True,
                                                       "accounting/REPRO.ACC.EXACT": False}:
        fail(f"--resume: resumed_jobs {second.get('resumed_jobs')}, jobs {resumed}")
    a, b = rows(first), rows(second)
    if a["DDA-E1"] != b["DDA-E1"]:
        fail("the resumed claim row differs from the one stored")
    for key in ("verdict", "numbers", "summary"):
        if a["REPRO.ACC.EXACT"][key] != b["REPRO.ACC.EXACT"][key]:
            fail(f"the re-run claim differs in {key}")
    if [e["job"] for e in load(out, "progress.json")["jobs"]] != jobs:
        fail("progress.json after --resume does not hold both jobs")
    if "resumed (dda/DDA-E1" not in p.stderr:
        fail(f"--resume does not say what it resumed: {p.stderr[-500:]}")
    print("ok: --resume took DDA-E1 from progress.json and re-ran REPRO.ACC.EXACT")

    p = run(dpref, out, "resume-test-1", "--resume")  # nothing removed: nothing re-runs
    third = load(out, "report.json")
    if p.returncode != 0 or third.get("resumed_jobs") != 2:
        fail(f"--resume of a complete progress.json re-ran jobs: {third.get('resumed_jobs')}")
    print("ok: a complete progress.json re-runs nothing")

    saved = (out / "progress.json").read_text()
    bad = json.loads(saved)
    bad["jobs"][0]["claims"][0]["verdict"] = "reproduced"  # DDA-E1 is contradicted
    cases = [("resume-test-2", [], saved, "resume-test-2"),
             ("resume-test-1-dirty", [], saved, "-dirty"),
             ("resume-test-1", ["--full"], saved, "mode"),
             ("resume-test-1", [], json.dumps(bad), "verdict"),
             ("resume-test-1", [], None, "progress.json")]
    for commit, mode, text, word in cases:
        if text is None:
            (out / "progress.json").unlink()
        else:
            (out / "progress.json").write_text(text)
        argv_mode = mode[0] if mode else "--quick"
        p = run(dpref, out, commit, "--resume", mode=argv_mode)
        msg = p.stdout + p.stderr
        if p.returncode != 3 or word not in msg or "--resume" not in msg:
            fail(f"{commit} {mode}: exit {p.returncode}, message {msg[-400:]!r} must name {word}")
        print(f"ok: refused ({commit} {argv_mode}): {msg.strip().splitlines()[-1][:120]}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
