#!/usr/bin/env python3
"""ARCH.INSTANCES: every paper's run_json<Real> is compiled once, in dpref_papers.

usage: check_instances.py LIBDPREF_PAPERS.a PAPER[,PAPER...] OBJECT...

Reads `nm -C --defined-only`: the library must define run_json of every listed paper for the
four scalars (double, long double, mp50, mpfr_real); no OBJECT (the CLI's object files) may
define any paper's run_json (an implicit instantiation there means a consumer did not see the
extern declarations). Exit 0 when both hold, 1 otherwise (each problem printed)."""
import re
import subprocess
import sys

SCALARS = {
    "double": re.compile(r"run_json<double>"),
    "long double": re.compile(r"run_json<long double>"),
    "mp50": re.compile(r"run_json<boost::multiprecision::number<boost::multiprecision::backends::cpp_bin_float<50u"),
    "mpfr_real": re.compile(r"run_json<boost::multiprecision::number<boost::multiprecision::backends::mpfr_float_backend<0u"),
}


def defined(path):
    out = subprocess.run(["nm", "-C", "--defined-only", path], check=True, capture_output=True,
                         text=True).stdout
    return [line for line in out.splitlines() if "::run_json<" in line]


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    lib, papers, objects = argv[1], argv[2].split(","), argv[3:]
    problems = []
    lines = defined(lib)
    for paper in papers:
        mine = [l for l in lines if f"dpref::{paper}::run_json<" in l]
        for name, pattern in SCALARS.items():
            if not any(pattern.search(l) for l in mine):
                problems.append(f"{lib}: no definition of dpref::{paper}::run_json<{name}>")
    for obj in objects:
        for l in defined(obj):
            problems.append(f"{obj}: defines {l.split(' ', 2)[-1][:160]}")
    for p in problems:
        print(p)
    print(f"check_instances: {len(papers)} papers x {len(SCALARS)} scalars, {len(objects)} "
          f"objects, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
