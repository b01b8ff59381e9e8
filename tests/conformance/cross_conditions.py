#!/usr/bin/python3
"""CONF.MACHINE: the corpus is a function of its inputs alone, not of the machine.

Regenerates the families whose values go through runs and samplers (the trajectories, the
samplers) under conditions another machine of the same kind may differ in, and requires the
same bytes as the committed corpus each time:
  - x87 +1 / -1 ulp: every glibc long double transcendental (logl, expl, powl, sinl, ...: the
    x87 FYL2X, F2XM1, FSIN, ... whose last bit differs between Intel and AMD) moved by one ulp
    (LD_PRELOAD of the dpref_x87_perturb module);
  - Eigen's cache sizes: the blocking sizes of its matrix-product kernels, which it reads from
    CPUID (tiny and large): set by the test-only generator CACHE_TOOL
    (tests/conformance/corpus_cache_sizes.cpp, the library generators of `dpref vectors`), which
    also runs with the default sizes;
  - threads: the ev and dda trajectories' references (mpfr:60) recomputed with 2 and 3 threads
    instead of the configured 1 give the same 60-digit expected values;
  - runtime dispatch: dpref's double Laplace / exponential answers recomputed with the portable
    kernel and (when the CPU has it) the AVX-512 kernel equal the corpus's references.
MPI ranks: `dpref vectors` is single-process (not applicable). Prints the SHA-256 of every
regenerated file under every condition.

usage: cross_conditions.py DPREF CACHE_TOOL X87_MODULE COMMITTED_CORPUS SCRATCH [--families F,...]
(PYTHONPATH must reach the dpref package for the threads and dispatch parts; --families
narrows the regenerated families, and the threads part runs only with the trajectories)
"""
import argparse
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys

FAMILIES = ["random/samplers-double", "random/samplers-mp50", "trajectories/ev",
            "trajectories/linesearch", "trajectories/dda", "trajectories/pwa", "trajectories/accel"]


def digest(p):
    return hashlib.sha256(p.read_bytes()).hexdigest()


def main():
    ap = argparse.ArgumentParser()
    for name in ("dpref", "cache_tool", "module", "committed", "scratch"):
        ap.add_argument(name)
    ap.add_argument("--families", default=",".join(FAMILIES))
    a = ap.parse_args()
    dpref, module = a.dpref, a.module
    families = a.families.split(",")
    committed, scratch = pathlib.Path(a.committed), pathlib.Path(a.scratch)
    shutil.rmtree(scratch, ignore_errors=True)
    want = {f: digest(committed / f"{f}.json") for f in families}
    only = [a for f in families for a in ("--only", f)]

    def cli(out):
        return [dpref, "vectors", "--out", str(out), *only]

    def tool(sizes):
        return lambda out: [a.cache_tool, str(out), sizes, *families]

    # (name, environment, command); every file must equal the committed one, which CONF_CORPUS
    # checks to be what the default `dpref vectors` run writes
    conditions = [
        ("default", {}, cli),
        ("x87 +1 ulp", {"LD_PRELOAD": module, "DPREF_X87_ULPS": "1"}, cli),
        ("x87 -1 ulp", {"LD_PRELOAD": module, "DPREF_X87_ULPS": "-1"}, cli),
        ("Eigen caches default", {}, tool("default")),
        ("Eigen caches 4K/16K/64K", {}, tool("4096,16384,65536")),
        ("Eigen caches 1M/64M/1G", {}, tool("1048576,67108864,1073741824")),
    ]
    failures = []
    for name, env, command in conditions:
        out = scratch / name.replace(" ", "_").replace("/", "-")
        args = command(out)
        r = subprocess.run(args, env={**os.environ, **env}, capture_output=True, text=True)
        if r.returncode != 0:
            failures.append(f"{name}: {pathlib.Path(args[0]).name} failed: "
                            f"{r.stderr.strip()[:400]}")
            continue
        for f in families:
            got = digest(out / f"{f}.json")
            print(f"{name:<24} {f:<26} {got}")
            if got != want[f]:
                failures.append(f"{name}: {f}.json differs from the committed corpus")
    if "trajectories/ev" in families and "trajectories/dda" in families:
        failures += check_threads(committed)
    failures += check_dispatch(committed)
    for f in failures:
        print("FAIL", f)
    n = len(conditions) * len(families)
    print(f"CONF.MACHINE: {len(conditions)} conditions x {len(families)} families "
          f"({n} files) + threads + dispatch: {'identical' if not failures else 'DIFFERENT'}")
    return 1 if failures else 0


def check_threads(committed):
    """The references of the threaded papers do not depend on the thread count."""
    import dpref
    bad = []
    for paper in ("ev", "dda"):
        fam = json.loads((committed / "trajectories" / f"{paper}.json").read_text())
        for v in fam["vectors"]:
            cfg = json.loads(json.dumps(v["input"]["config"]))
            if cfg.get("params", {}).get("threads") != 1:
                bad.append(f"threads: {v['id']} is not configured with 1 thread")
                continue
            for threads in (2, 3):
                cfg["params"]["threads"] = threads
                out = dpref.run(paper, cfg, precision=v["reference_precision"])
                doc = json.loads(json.dumps(out, default=str))
                for ptr, exp in v["expected"].items():
                    got = resolve(doc, ptr)
                    if normal(got) != normal(exp):
                        bad.append(f"threads={threads}: {v['id']} {ptr} differs")
            print(f"threads 1/2/3            {v['id']:<52} same expected values")
    return bad


def resolve(doc, ptr):
    for part in ptr.strip("/").split("/"):
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


def normal(x):
    """Leaves as 60-digit texts (the corpus's form) for comparison."""
    import mpmath
    if isinstance(x, list):
        return [normal(y) for y in x]
    if isinstance(x, (bool, int)) or x is None:
        return x
    with mpmath.workdps(80):
        return mpmath.nstr(mpmath.mpf(str(x)), 60, strip_zeros=False)


def check_dispatch(committed):
    """dpref's double Laplace / exponential answers do not depend on the batch kernel."""
    import dpref
    bad = []
    kernels = ["portable"]
    try:
        dpref.sample("laplace", 1, params={"b": "1"}, seed=1, precision="double", kernel="avx512")
        kernels.append("avx512")
    except RuntimeError:
        print("dispatch: this CPU has no AVX-512 (portable kernel only)")
    fam = json.loads((committed / "random" / "samplers-double.json").read_text())
    for v in fam["vectors"]:
        i = v["input"]
        if i["distribution"] not in ("laplace", "exponential"):
            continue
        a = i["address"]
        want = [float(x) for x in v["reference"]["output"]["samples"]]
        for k in kernels:
            got = dpref.sample(i["distribution"], i["count"], params=i.get("params"),
                               seed=a["seed"], stream=a["stream"], substream=a["substream"],
                               position=a["position"], precision="double", kernel=k)
            if [float(x) for x in got] != want:
                bad.append(f"dispatch {k}: {v['id']} differs from the corpus reference")
        print(f"dispatch {'/'.join(kernels):<15} {v['id']:<52} same samples")
    return bad


if __name__ == "__main__":
    sys.exit(main())
