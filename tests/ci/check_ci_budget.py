#!/usr/bin/env python3
"""CI.BUDGET (spec/ci.md): scripts/ci_budget.py on synthetic runs whose cold estimates are known
by hand. Deterministic (no randomness); each case can fail:
  1. a cold run (no ccache log): the estimate is the measured sum, 100 s + 600 s + 50 s = 750 s;
  2. a warm run: two of three objects from the cache; their cold times come from the profile
     (300 s, 200 s) and the third was compiled cold (100 s): work 600 s + link 10 s over 2 jobs =
     305 s > the measured 30 s; total 100 + 305 + 50 = 455 s;
  3. an object neither compiled cold nor profiled counts at the profile's 90th percentile;
  4. negative control: the same warm run with a budget of 7 min (420 s < 455 s) fails (exit 1)
     and names the budget; with 8 min it passes;
  5. with --warn-only the 7-minute budget prints the same message and exits 0.
"""
import json
import pathlib
import subprocess
import sys
import tempfile

script = pathlib.Path(sys.argv[1])


def fail(msg):
    raise AssertionError(msg)


def ninja(rows):
    return "# ninja log v5\n" + "".join(
        f"0\t{int(ms)}\t0\t{out}\tdeadbeef\n" for out, ms in rows)


def run(d, *args):
    p = subprocess.run([sys.executable, str(script), str(d / "ci"), "--jobs", "2",
                        "--build-root", str(d / "build"), "--profile", str(d / "profile.json"),
                        *args], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def estimate(out):
    for line in out.splitlines():
        if line.startswith("total "):
            return float(line.split()[2].rstrip("s"))
    fail(f"no total line in:\n{out}")


def setup(d, ccache_log, profile):
    (d / "ci").mkdir()
    (d / "build" / "release").mkdir(parents=True)
    (d / "ci" / "phases.tsv").write_text(
        "configure\trelease\t100\trelease configure\n"
        "build\trelease\t30\trelease build\n"
        "test\trelease\t50\trelease tests\n")
    objs = [("CMakeFiles/lib.dir/src/a.cpp.o", 500), ("CMakeFiles/lib.dir/src/b.cpp.o", 400),
            ("tests/CMakeFiles/t.dir/unit/c.cpp.o", 100000), ("tests/t", 10000)]
    (d / "ci" / "release.edges").write_text(ninja(objs))
    (d / "build" / "release" / ".ninja_log").write_text(ninja(objs))
    if ccache_log is not None:
        (d / "ci" / "ccache.log").write_text(ccache_log)
    (d / "profile.json").write_text(json.dumps(profile))


def fresh_run(t, name, ccache_log, profile):
    """A new run directory t/name, set up and run once: (exit code, output)."""
    d = pathlib.Path(t) / name
    d.mkdir()
    setup(d, ccache_log, profile)
    return run(d)


def near(out, seconds):
    return abs(estimate(out) - seconds) <= 1


def estimated_run(t, name, what, ccache_log, profile, seconds):
    """fresh_run; fails unless it exits 0 with the estimate `seconds` (+-1 s). Its output."""
    rc, out = fresh_run(t, name, ccache_log, profile)
    if rc != 0 or not near(out, seconds):
        fail(f"{what}: expected exit 0 and {seconds} s, got {rc}:\n{out}")
    return out


# as ccache writes it: relative to the build tree (CCACHE_BASEDIR) or absolute
root = script.resolve().parent.parent
warm_log = ("# ../../src/a.cpp\ndirect_cache_hit\n"
            f"# {root}/src/b.cpp\npreprocessed_cache_hit\n"
            "# ../../tests/unit/c.cpp\ncache_miss\n")
profile = {"release": {"CMakeFiles/lib.dir/src/a.cpp.o": 300.0,
                       "CMakeFiles/lib.dir/src/b.cpp.o": 200.0,
                       "other/x.o": 50.0, "other/y.o": 60.0, "other/z.o": 70.0}}

with tempfile.TemporaryDirectory() as t:
    # 1. cold: every compilation measured; 0.5 + 0.4 + 100 + 10 = 110.9 s of work / 2 = 55.45 s
    #    > 30 s measured, so the build counts 55 s: 100 + 55.45 + 50 = 205.45 s
    out = estimated_run(t, "cold", "cold run", None, profile, 205)
    if "ccache: off" not in out:
        fail(f"cold run: the hit rate line does not say ccache was off:\n{out}")
    print(f"ok: cold run estimate {estimate(out):.0f} s (by hand 205 s)")

    # 2. warm: a, b cached (300 + 200 from the profile), c cold 100 s, link 10 s: 610 / 2 = 305
    out = estimated_run(t, "warm", "warm run", warm_log, profile, 455)
    if "2 of 3 compilations from the cache (67 % hit rate)" not in out:
        fail(f"warm run: hit rate line missing:\n{out}")
    print(f"ok: warm run estimate {estimate(out):.0f} s (by hand 455 s), hit rate 2 of 3")

    # 3. unprofiled cached object: b unknown -> 90th percentile of {50,60,70,300} = 70 s;
    #    work 300 + 70 + 100 + 10 = 480 / 2 = 240; total 100 + 240 + 50 = 390 s
    prof = {"release": {k: v for k, v in profile["release"].items() if "b.cpp" not in k}}
    rc, out = fresh_run(t, "unknown", warm_log, prof)
    if rc != 0 or not near(out, 390) or "90th percentile" not in out:
        fail(f"unprofiled object: expected 390 s at the 90th percentile, got {rc}:\n{out}")
    print(f"ok: unprofiled cached object counted at the 90th percentile: {estimate(out):.0f} s")

    # 4. negative control: budget 7 min < 455 s fails; 8 min passes
    d = pathlib.Path(t) / "warm"
    rc, out = run(d, "--budget-minutes", "7")
    if rc != 1 or "over the budget of 7 min" not in out:
        fail(f"budget 7 min: expected exit 1 naming the budget, got {rc}:\n{out}")
    rc, out = run(d, "--budget-minutes", "8")
    if rc != 0:
        fail(f"budget 8 min: expected exit 0, got {rc}:\n{out}")
    print("ok: negative control: 455 s fails a 7-minute budget and passes an 8-minute one")
    # 5. --warn-only (run_tests.sh while the cold run is over budget): the message, exit 0
    rc, out = run(d, "--budget-minutes", "7", "--warn-only")
    if rc != 0 or "over the budget of 7 min" not in out:
        fail(f"--warn-only: expected exit 0 with the over-budget message, got {rc}:\n{out}")
    print("ok: --warn-only prints the over-budget message and exits 0")
print("CI.BUDGET: passed")
