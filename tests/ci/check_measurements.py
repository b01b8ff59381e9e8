#!/usr/bin/env python3
"""ARCH.MEASUREMENTS (spec/architecture.md): paper code draws privacy noise only through the
measurement types of include/dpref/mechanisms.

Scans C++ headers for calls of the samplers of include/dpref/random (the sampler names are
derived from those headers: every function or type taking a `philox_stream&`) and reports each
call that is not marked `not privacy noise: <why>` on its line or in the comment lines directly
above it, or `measurement: <type>` for a draw inside a paper's own mechanism type whose event()
charges exactly that draw (pwa's M_E, Algorithm 1's selection). A call qualified by `mechanisms::` or made on an object (`.name(`, `->name(`) is not a
sampler call.

usage: check_measurements.py RANDOM_DIR PATH... [--expect N]
  PATH: a directory (its *.hpp, recursively) or a file.
  Exit 0 when no unmarked call is found (or, with --expect N, when exactly N are), else 1.
"""
import os
import re
import sys

MARKER = "not privacy noise:"
# a draw inside a paper's own mechanism type, whose event() charges exactly that draw (pwa's
# exponential mechanism M_E and Algorithm 1's selection at its plan's scale)
MEASUREMENT = "measurement:"
DEF = re.compile(r"\b([a-z_][a-z_0-9]*)\s*\(\s*(?:const\s+)?philox_stream\s*&")
# names in include/dpref/random that take a stream but are not samplers a paper could call for
# noise (internal helpers, members of the lazy reals)
NOT_SAMPLERS = {"reserve", "for_each_run", "fill_range", "snap_impl", "word", "less_than",
                "approx", "lane_reader", "magnitude_bounds", "magnitude_floor", "next_draw",
                # generic name (std::fill, local lambdas); the batch kernels behind it are
                # reached through batch::laplace/gaussian/..., which are listed
                "fill"}
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def sampler_names(random_dir):
    names = set()
    for root, _, files in os.walk(random_dir):
        for f in files:
            if f.endswith(".hpp"):
                with open(os.path.join(root, f), encoding="utf-8") as fh:
                    names.update(DEF.findall(fh.read()))
    return sorted(names - NOT_SAMPLERS)


def code_part(line):
    """The line without string literals and without its // comment."""
    line = STRING.sub('""', line)
    i = line.find("//")
    return line if i < 0 else line[:i]


def scan(path, call):
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    found = []
    for n, line in enumerate(lines):
        code = code_part(line)
        if not call.search(code):
            continue
        marked = MARKER in line or MEASUREMENT in line
        k = n - 1
        while not marked and k >= 0 and lines[k].strip().startswith("//"):
            marked = MARKER in lines[k] or MEASUREMENT in lines[k]
            k -= 1
        if not marked:
            found.append((path, n + 1, line.strip()))
    return found


def main(argv):
    expect = None
    if "--expect" in argv:
        i = argv.index("--expect")
        expect = int(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    if len(argv) < 3:
        print(__doc__)
        return 2
    names = sampler_names(argv[1])
    if not {"gaussian", "laplace", "vector_laplace", "discrete_laplace",
            "discrete_gaussian"} <= set(names):
        print(f"check_measurements: sampler list derived from {argv[1]} is incomplete: {names}")
        return 2
    alt = "|".join(names)
    # a call: name, optional template arguments, '(' — not preceded by '.', '->', a letter or
    # 'mechanisms::'
    call = re.compile(r"(?<![\w.>])(?<!mechanisms::)(?:(?:dpref|fast|ziggurat|batch|secure)::)*"
                      r"(?:" + alt + r")\s*(?:<[^<>()]*>)?\s*\(")
    files = []
    for p in argv[2:]:
        if os.path.isdir(p):
            for root, _, fs in os.walk(p):
                files += [os.path.join(root, f) for f in fs if f.endswith(".hpp")]
        elif os.path.isfile(p):
            files.append(p)
        else:
            print(f"check_measurements: no such file or directory: {p}")
            return 2
    files.sort()
    if not files:
        print("check_measurements: nothing to scan")
        return 2
    found = []
    for f in files:
        found += scan(f, call)
    print(f"check_measurements: {len(files)} files, samplers: {', '.join(names)}")
    for path, line, text in found:
        print(f"{path}:{line}: sampler called outside a measurement type (privacy noise must go "
              f"through include/dpref/mechanisms; mark other draws '// {MARKER} <why>'): {text}")
    if expect is not None:
        ok = len(found) == expect
        print(f"check_measurements: {len(found)} unmarked calls, expected {expect}: "
              f"{'ok' if ok else 'FAIL'}")
        return 0 if ok else 1
    print(f"check_measurements: {len(found)} unmarked calls")
    return 0 if not found else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
