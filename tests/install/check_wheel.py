#!/usr/bin/env python3
"""PY.WHEEL: the contents of a dpref wheel (spec/python.md). Prints a summary (files and sizes per
top folder) and fails unless it holds the extension, the pure-Python package, the type stubs,
the command-line tool (executable) with its console entry, and the shipped data the tool and the
package read at run time — and nothing from a source or build tree (no absolute paths, no
symlinks, no __pycache__).

usage: check_wheel.py <wheel>"""
import collections
import re
import stat
import sys
import zipfile

wheel = sys.argv[1]
z = zipfile.ZipFile(wheel)
infos = {i.filename: i for i in z.infolist()}
names = sorted(infos)
errors = []

groups = collections.OrderedDict()
for n in names:
    parts = n.split("/")
    key = "/".join(parts[:3]) + "/" if n.startswith("dpref/share/dpref/") and len(parts) > 4 else (
        "dpref/" + parts[1] + "/" if n.startswith("dpref/") and len(parts) > 2 else n)
    count, size = groups.get(key, (0, 0))
    groups[key] = (count + 1, size + infos[n].file_size)
print(f"{wheel.rsplit('/', 1)[-1]}: {len(names)} files")
for key, (count, size) in groups.items():
    print(f"  {size:>10}  {key}" + (f"  ({count} files)" if count > 1 else ""))

required = [
    r"dpref/__init__\.py", r"dpref/__main__\.py", r"dpref/_api\.py", r"dpref/conformance\.py",
    r"dpref/_core\.cpython-[^/]+\.so",  # the extension
    r"dpref/__init__\.pyi", r"dpref/_core\.pyi", r"dpref/py\.typed",  # type stubs
    r"dpref/bin/dpref",  # the command-line tool
    r"dpref/share/dpref/ev/base_load_taylor\.csv",
    r"dpref/share/dpref/conformance/MANIFEST\.json",
    r"dpref/share/dpref/conformance/accounting/events\.json",
    r"dpref/share/dpref/scripts/report_html\.py", r"dpref/share/dpref/scripts/report_samplers\.py",
    r"dpref/share/dpref/scripts/pwa_study_plots\.py",
    r"dpref/share/dpref/examples/(ev|pwa|dda|accel|linesearch)\.json",
    r"dpref/share/dpref/examples/python/run_paper\.py",
    r"dpref/share/dpref/tests/regression/data/linesearch_fertility_3000\.csv",
    r"dpref-[^/]+\.dist-info/(METADATA|WHEEL|RECORD|entry_points\.txt)",
]
for pattern in required:
    if not any(re.fullmatch(pattern, n) for n in names):
        errors.append(f"no file matches {pattern}")
for pattern in (r"dpref/share/dpref/examples/(ev|pwa|dda|accel|linesearch)\.json",):
    found = {n for n in names if re.fullmatch(pattern, n)}
    if len(found) != 5:
        errors.append(f"examples: {sorted(found)}")

tool = infos.get("dpref/bin/dpref")
if tool is not None and not (tool.external_attr >> 16) & stat.S_IXUSR:
    errors.append("dpref/bin/dpref is not executable in the wheel")
for n, i in infos.items():
    mode = i.external_attr >> 16
    if stat.S_ISLNK(mode):
        errors.append(f"symlink in the wheel: {n}")
    if n.startswith("/") or ".." in n.split("/") or "__pycache__" in n:
        errors.append(f"unexpected entry: {n}")
ep = next((n for n in names if n.endswith(".dist-info/entry_points.txt")), None)
if ep is None or "dpref = dpref.__main__:main" not in z.read(ep).decode():
    errors.append("no console entry dpref = dpref.__main__:main")
tag = z.read(next(n for n in names if n.endswith(".dist-info/WHEEL"))).decode()
if "Root-Is-Purelib: false" not in tag:
    errors.append("the wheel is marked pure Python")

if errors:
    print("\n".join("FAIL: " + e for e in errors))
    sys.exit(1)
print("wheel contents: ok (extension, package, stubs, dpref/bin/dpref + console entry, data)")
