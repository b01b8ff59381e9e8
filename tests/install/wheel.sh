#!/usr/bin/env bash
# PY.WHEEL (spec/python.md): the wheel, built with the user's command
#     python3 -m build --wheel --no-isolation
# from the source tree, but packaging the build tree's already compiled artefacts
# (DPREF_CMAKE_BUILD_DIR, setup.py: no second compile in CI), is checked for its contents
# (check_wheel.py), installed with pip into a fresh virtual environment outside the source tree
# (python3 -m venv --system-site-packages: numpy, mpmath, matplotlib are Debian's) and used from
# a scratch folder with no PYTHONPATH and no DPREF_* variable: the package imports from the
# environment, `dpref` (the console entry) runs the bundled tool, every example of
# examples/python runs from its installed copy, and `dpref reproduce` finds its data.
# usage: wheel.sh <build dir> <source dir> <python3 of the build>
set -euo pipefail
build_dir=$(cd "$1" && pwd)
source_dir=$(cd "$2" && pwd)
python=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/dpref_wheel.XXXXXX")
trap 'rm -rf "$work"' EXIT
unset DPREF_SOURCE_DIR DPREF_DATA_DIR DPREF_CLI PYTHONPATH
export PYTHONDONTWRITEBYTECODE=1 PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1

step() { echo "== $*"; }

step "python3 -m build --wheel --no-isolation (DPREF_CMAKE_BUILD_DIR=$build_dir)"
t0=$SECONDS
(cd "$source_dir" && DPREF_CMAKE_BUILD_DIR="$build_dir" "$python" -m build --wheel --no-isolation \
   --outdir "$work/dist") > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
wheel=$(ls "$work"/dist/dpref-*.whl)
echo "$(basename "$wheel"): $(($(stat -c %s "$wheel") / 1024)) KiB, built in $((SECONDS - t0)) s"
"$python" "$source_dir/tests/install/check_wheel.py" "$wheel"

step "pip install into a fresh venv (--system-site-packages) in $work"
"$python" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/python" -m pip install -q "$wheel"
cd "$work"
py="$work/venv/bin/python"

step "import dpref from the environment"
"$py" - "$work/venv" <<'PY'
import pathlib, subprocess, sys
import dpref
venv = pathlib.Path(sys.argv[1]).resolve()
pkg = pathlib.Path(dpref.__file__).resolve().parent
assert venv in pkg.parents, f"dpref imported from {pkg}, not from {venv}"
data = dpref.data_dir().resolve()
assert data == pkg / "share" / "dpref", data
for f in ("__init__.pyi", "_core.pyi", "py.typed", "bin/dpref"):
    assert (pkg / f).exists(), f
print(f"dpref {dpref.__version__} from {pkg}; data {data}")
print("sample:", dpref.sample("laplace", 3, seed=1))
PY

step "the dpref command (console entry -> dpref/bin/dpref)"
version=$("$py" -c "import dpref; print(dpref.__version__)")
out=$("$work/venv/bin/dpref" --version)
[ "$out" = "dpref $version" ] || { echo "FAIL: dpref --version printed '$out'"; exit 1; }
echo "$out"
data=$("$py" -c "import dpref; print(dpref.data_dir())")
"$work/venv/bin/dpref" account "$data/examples/account_events.json" | head -n 3

step "the examples, from the installation ($data/examples/python)"
n=0
failed=()
for ex in "$data"/examples/python/*.py; do
  echo "-- $(basename "$ex")"
  "$py" "$ex" || failed+=("$(basename "$ex")")
  n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "FAIL: no example installed"; exit 1; }

step "dpref reproduce from the venv"
"$work/venv/bin/dpref" reproduce --quick --papers linesearch --out report > reproduce.log 2>&1 ||
  { cat reproduce.log; exit 1; }
"$py" "$source_dir/tests/install/check_report.py" report
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAIL: examples that failed from the installation: ${failed[*]}"
  exit 1
fi
echo "PY.WHEEL: passed ($n examples)"
