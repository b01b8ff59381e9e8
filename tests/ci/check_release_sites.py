#!/usr/bin/python3
"""ARCH.RELEASE.SITES (spec/architecture.md): the audits exercise the shipped release functions.

The registry tests/audit/release_sites.json names, for each paper, the shipped files of its
release path (the paper's `run` and the functions it calls to draw the released noise), the
release functions on that path, and the paper's audit files; `generic` lists the audits of the
generic mechanisms and primitives. Checks:
  1. every test source that runs an audit (`run_audit`) is registered, exactly once;
  2. every release function is defined or called in the paper's shipped release path (so the
     registry names what `run` releases with, not a test-only copy);
  3. every audit of a paper calls at least one of its release functions;
  4. no audit of a paper draws noise with a raw sampler (a re-implementation of the release),
     except on a line marked `negative control` (a deliberately broken mechanism) or
     `not a release` (e.g. warming a sampler's tables in the main thread);
An audit's text includes the test-support headers it includes ("support/..."), so a shared
helper that calls the release counts for every audit using it.
  5. negative controls of the checker itself: a synthetic audit that re-implements a release
     with a raw sampler, and one that calls no release function, are both flagged.
usage: check_release_sites.py SOURCE_DIR
"""
import json
import pathlib
import re
import sys

SAMPLERS = ("gaussian", "laplace", "vector_laplace", "discrete_laplace", "discrete_gaussian",
            "exponential", "bernoulli_exp")


def call_re(name, qualified=True):
    """A call (or definition) of `name`, e.g. `pwa::run` or `select_index`: optionally further
    qualified and with template arguments. qualified=False matches only the last component of
    the name (inside the paper's own namespace, where the shipped code does not qualify it)."""
    if not qualified:
        name = name.split("::")[-1]
    return re.compile(r"(?<![\w])(?:[A-Za-z_]\w*::)*" + re.escape(name) +
                      r"\s*(?:<[^;(){}]*>)?\s*\(")


RAW = re.compile(r"(?<![\w:.])(?:dpref::)?(?:" + "|".join(SAMPLERS) + r")\s*<[^;(){}]*>\s*\(")


def strip_comments(text):
    return re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)


def with_support(root, rel):
    """The audit's text followed by the tests/support headers it includes."""
    text = (root / rel).read_text(encoding="utf-8")
    for inc in re.findall(r'#include\s+"(support/[^"]+)"', text):
        text += "\n" + (root / "tests" / inc).read_text(encoding="utf-8")
    return text


def audit_problems(name, text, release):
    """Problems of one paper audit (checks 3 and 4)."""
    problems = []
    code = strip_comments(text)
    if not any(call_re(r).search(code) for r in release):
        problems.append(f"{name}: calls none of its paper's release functions {release}")
    for i, line in enumerate(text.splitlines(), 1):
        if "negative control" in line.lower() or "not a release" in line.lower():
            continue
        if RAW.search(strip_comments(line)):
            problems.append(f"{name}:{i}: draws with a raw sampler (re-implements the release): "
                            f"{line.strip()}")
    return problems


def main(root):
    root = pathlib.Path(root)
    reg = json.loads((root / "tests" / "audit" / "release_sites.json").read_text())
    problems = []
    registered = {}
    for paper, site in reg["papers"].items():
        for a in site["audits"]:
            registered.setdefault(a, []).append(paper)
    for a in reg["generic"]:
        registered.setdefault(a, []).append("generic")
    # 1. every audit source is registered exactly once
    for src in sorted(root.glob("tests/**/*.cpp")):
        rel = src.relative_to(root).as_posix()
        if re.search(r"\brun_audit\w*\s*[<(]", src.read_text(encoding="utf-8")):
            owners = registered.get(rel, [])
            if len(owners) != 1:
                problems.append(f"{rel}: runs an audit but is registered {len(owners)} times "
                                f"({owners}) in tests/audit/release_sites.json")
    for a in registered:
        if not (root / a).exists():
            problems.append(f"{a}: registered but missing")
    for paper, site in reg["papers"].items():
        shipped = "\n".join(strip_comments((root / f).read_text(encoding="utf-8"))
                            for f in site["run"])
        # 2. the release functions are on the shipped path
        for r in site["release"]:
            if not call_re(r, qualified=False).search(shipped):
                problems.append(f"{paper}: release function {r} is not called in {site['run']}")
        # 3, 4. the audits call them and draw no noise of their own
        for a in site["audits"]:
            problems += audit_problems(a, with_support(root, a), site["release"])
    # 5. the checker flags a re-implemented release and an audit that bypasses the release
    fake = ("const auto m = [](const vec& x, philox_stream& s) {\n"
            "  return x + dpref::vector_laplace<double>(s, 2, 1.0);\n};\n")
    got = audit_problems("synthetic", fake, ["ev::gradient_noise"])
    if len(got) != 2:
        problems.append(f"negative control: the synthetic re-implementation gave {got}")
    ok = "return ev::gradient_noise<double>(st, 2, 2, release);  // the shipped release\n"
    if audit_problems("synthetic", ok, ["ev::gradient_noise"]):
        problems.append("negative control: a call of the release function was flagged")
    for p in problems:
        print("check_release_sites:", p)
    n = sum(len(s["audits"]) for s in reg["papers"].values())
    print(f"check_release_sites: {len(reg['papers'])} papers, {n} paper audits, "
          f"{len(reg['generic'])} generic audits, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else
                  pathlib.Path(__file__).resolve().parent.parent.parent))
