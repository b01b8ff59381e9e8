#!/usr/bin/env python3
"""CI time budget (spec/ci.md CI.BUDGET): the phase table of a run of scripts/run_tests.sh, its
ccache hit rate, the ten slowest translation units and an estimate of the same run with nothing
cached; fails (exit 1) when that estimate exceeds the budget.

usage: ci_budget.py RUN_DIR [--budget-minutes M] [--jobs N] [--profile FILE] [--write-profile]
                           [--warn-only]

RUN_DIR (build/ci) holds what run_tests.sh recorded:
  phases.tsv     one row per phase: kind (configure|build|test), preset, seconds, name
  <preset>.edges the lines ninja appended to build/<preset>/.ninja_log during the build phase
  ccache.log     ccache's stats_log of the run (one '# <source>' line and its counters per
                 compilation); absent when ccache was off (CCACHE_DISABLE=1: every edge is cold)

The cold estimate of a build phase is the larger of its measured wall time and the work of every
edge of the preset's build graph (build/<preset>/.ninja_log) divided by the number of jobs: an
object compiled without the cache in this run counts at its measured time; one ccache answered (or
ninja did not rebuild) at its cold time in the profile (scripts/ci_cold_profile.json, written from
a cold run with --write-profile), or at the profile's 90th percentile when the profile does not
know it (an over-estimate rather than an under-estimate); links at their measured time.
Configure and test phases are not cached and count as measured.
"""
import argparse
import json
import os
import pathlib
import statistics
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROFILE = ROOT / "scripts" / "ci_cold_profile.json"


def read_phases(run_dir):
    rows = []
    path = run_dir / "phases.tsv"
    if not path.exists():
        sys.exit(f"ci_budget: {path} not found (written by scripts/run_tests.sh)")
    for line in path.read_text().splitlines():
        kind, preset, seconds, name = line.split("\t", 3)
        rows.append({"kind": kind, "preset": preset, "seconds": float(seconds), "name": name})
    return rows


def source_of(obj):
    """The source file of a CMake object path (CMakeFiles/<target>.dir/<source>.o), relative to
    the source tree: <dir>/CMakeFiles/t.dir/x/y.cpp.o -> <dir>/x/y.cpp; '__' stands for '..'."""
    if "CMakeFiles/" not in obj or ".dir/" not in obj or not obj.endswith(".o"):
        return None
    head, rest = obj.split("CMakeFiles/", 1)
    rel = rest.split(".dir/", 1)[1][: -len(".o")]
    parts = [".." if p == "__" else p for p in (head + rel).split("/") if p]
    return os.path.normpath("/".join(parts))


def read_ninja_log(path):
    """output -> seconds of the latest entry of every edge of a ninja log (v5: start, end, mtime,
    output, hash; milliseconds)."""
    out = {}
    if path.exists():
        for line in path.read_text().splitlines():
            f = line.split("\t")
            if len(f) >= 4 and f[0].isdigit():
                out[f[3]] = (int(f[1]) - int(f[0])) / 1000.0
    return out


def read_ccache_log(run_dir):
    """source (relative to the source tree) -> (hits, misses) of the run."""
    path = run_dir / "ccache.log"
    out = {}
    if not path.exists():
        return None
    src = None
    for line in path.read_text().splitlines():
        if line.startswith("# "):
            p = line[2:].strip()
            # ccache names the source as the compiler got it: absolute, or (CCACHE_BASEDIR)
            # relative to the build tree build/<preset>, two levels below the source tree
            p = os.path.normpath(p if os.path.isabs(p) else os.path.join(ROOT, "build", "_", p))
            src = os.path.relpath(p, ROOT) if p.startswith(str(ROOT) + os.sep) else p
            out.setdefault(src, [0, 0])
        elif src is not None:
            if line in ("direct_cache_hit", "preprocessed_cache_hit"):
                out[src][0] += 1
            elif line == "cache_miss":
                out[src][1] += 1
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run_dir", type=pathlib.Path)
    ap.add_argument("--budget-minutes", type=float,
                    default=float(os.environ.get("DPREF_CI_BUDGET_MINUTES", "60")))
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS", os.cpu_count() or 1)))
    ap.add_argument("--profile", type=pathlib.Path, default=PROFILE)
    ap.add_argument("--build-root", type=pathlib.Path, default=ROOT / "build",
                    help="the folder of the presets' build trees (build/<preset>/.ninja_log)")
    ap.add_argument("--warn-only", action="store_true",
                    help="print the over-budget message but exit 0 (while the cold run is known "
                         "to be over budget: spec/ci.md)")
    ap.add_argument("--write-profile", action="store_true",
                    help="record this run's uncached compile times as the cold profile")
    a = ap.parse_args()
    if a.budget_minutes <= 0:
        sys.exit(f"ci_budget: --budget-minutes must be > 0, got {a.budget_minutes}")
    if a.jobs < 1:
        sys.exit(f"ci_budget: --jobs must be >= 1, got {a.jobs}")

    phases = read_phases(a.run_dir)
    cc = read_ccache_log(a.run_dir)
    profile = json.loads(a.profile.read_text()) if a.profile.exists() else {}
    all_cold = sorted(v for p in profile.values() for v in p.values())
    p90 = all_cold[int(0.9 * (len(all_cold) - 1))] if all_cold else None

    hits = misses = 0
    unknown = []
    slowest = []
    new_profile = {k: dict(v) for k, v in profile.items()}
    total_measured = total_cold = 0.0
    print(f"{'phase':<62} {'measured':>9} {'cold est.':>9}")
    for ph in phases:
        cold = ph["seconds"]
        if ph["kind"] == "build":
            preset = ph["preset"]
            this_run = read_ninja_log(a.run_dir / f"{preset}.edges")
            graph = read_ninja_log(a.build_root / preset / ".ninja_log")
            graph.update(this_run)
            known = profile.get(preset, {})
            work = 0.0
            for out, sec in graph.items():
                if not out.endswith(".o"):
                    work += sec  # links and custom commands are never cached
                    continue
                src = source_of(out)
                h, m = cc.get(src, (0, 0)) if (cc is not None and src) else (0, 1)
                if out in this_run and not (h > 0 and (m == 0 or sec < 2.0)):
                    misses += 1
                    cost, how = sec, "measured"
                    new_profile.setdefault(preset, {})[out] = round(sec, 2)
                else:
                    hits += out in this_run
                    if out in known:
                        cost, how = known[out], "profile"
                    else:
                        unknown.append(f"{preset}:{out}")
                        cost, how = (p90 if p90 is not None else sec), "90th percentile"
                work += cost
                slowest.append((cost, preset, out, how))
            # a cold build cannot be faster than this run's, nor than its work spread over the jobs
            cold = max(cold, work / a.jobs)
        total_measured += ph["seconds"]
        total_cold += cold
        print(f"{ph['name'][:62]:<62} {ph['seconds']:>8.0f}s {cold:>8.0f}s")
    print(f"{'total':<62} {total_measured:>8.0f}s {total_cold:>8.0f}s "
          f"({total_measured / 60:.1f} / {total_cold / 60:.1f} min)")
    n = hits + misses
    if cc is None:
        print(f"ccache: off for this run (every one of {n} compilations measured cold)")
    else:
        print(f"ccache: {hits} of {n} compilations from the cache "
              f"({100.0 * hits / n if n else 0:.0f} % hit rate)")
    if unknown:
        print(f"  {len(unknown)} objects not compiled cold in this run and not in the profile counted at its 90th percentile "
              f"({p90 if p90 is not None else 'no profile'} s), e.g. {unknown[0]}")
    print("ten slowest translation units (cold seconds, preset, object, source of the number):")
    for sec, preset, obj, how in sorted(slowest, reverse=True)[:10]:
        print(f"  {sec:8.1f}  {preset:<8} {obj}  ({how})")
    if a.write_profile:
        a.profile.write_text(json.dumps(new_profile, indent=1, sort_keys=True) + "\n")
        print(f"cold profile written: {a.profile} "
              f"({sum(len(v) for v in new_profile.values())} objects)")
    budget = 60.0 * a.budget_minutes
    if total_cold > budget:
        print(f"ci_budget: FAILED: the cold estimate of this CI run is {total_cold / 60:.1f} min, "
              f"over the budget of {a.budget_minutes:g} min (DPREF_CI_BUDGET_MINUTES); find the "
              f"slow phases and translation units above", file=sys.stderr)
        return 0 if a.warn_only else 1
    print(f"ci_budget: cold estimate {total_cold / 60:.1f} min within the budget of "
          f"{a.budget_minutes:g} min")
    return 0


if __name__ == "__main__":
    sys.exit(main())
