#!/usr/bin/env bash
# ARCH.INSTALL (spec/architecture.md), the C++ side: `cmake --install` of the build tree into a
# scratch prefix outside the source tree, then moved elsewhere (so nothing may rely on the
# install path, and the sources are never consulted), and used from there only:
#   1. examples/consumer, copied out of the source tree, is configured against that prefix alone
#      (find_package(dpref): dpref::dpref + dpref::instances), built and run (the accountant,
#      pwa::run, a sampler at double and mp50);
#   2. the installed `dpref` runs in a scratch folder with no DPREF_* variable set and finds what
#      it reads at run time relative to itself (<prefix>/share/dpref): a paper's shipped example
#      with its shipped base-load profile, and `dpref reproduce --quick --papers linesearch` (the
#      example configurations of the performance rows, the committed data subset of the
#      linesearch claims, the report scripts).
# usage: consumer.sh <build dir> <source dir>
set -euo pipefail
build_dir=$(cd "$1" && pwd)
source_dir=$(cd "$2" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/dpref_install.XXXXXX")
trap 'rm -rf "$work"' EXIT
unset DPREF_SOURCE_DIR DPREF_DATA_DIR DPREF_CLI PYTHONPATH

step() { echo "== $*"; }

step "cmake --install $build_dir into a scratch prefix, moved to $work/prefix"
cmake --install "$build_dir" --prefix "$work/staging" > /dev/null
mv "$work/staging" "$work/prefix"
prefix="$work/prefix"
for f in bin/dpref include/dpref/version.hpp lib/cmake/dpref/dprefConfig.cmake \
         share/dpref/examples/consumer/CMakeLists.txt share/dpref/examples/ev.json \
         share/dpref/ev/base_load_taylor.csv share/dpref/conformance/MANIFEST.json \
         share/dpref/scripts/report_html.py \
         share/dpref/tests/regression/data/linesearch_fertility_3000.csv; do
  [ -e "$prefix/$f" ] || { echo "FAIL: the installation has no $f"; exit 1; }
done

step "examples/consumer against the prefix"
cp -r "$source_dir/examples/consumer" "$work/consumer"
cd "$work"
cmake -S consumer -B consumer-build -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
  > consumer-configure.log || { cat consumer-configure.log; exit 1; }
cmake --build consumer-build > consumer-build.log 2>&1 || { cat consumer-build.log; exit 1; }
./consumer-build/consumer

step "the installed dpref finds its data relative to itself"
"$prefix/bin/dpref" --version
# the shipped ev example reads the shipped base-load profile (shipped:ev/base_load_taylor.csv)
ev_run=(ev run --params "$prefix/share/dpref/examples/ev.json"
        --iterations 2)
"$prefix/bin/dpref" "${ev_run[@]}" --out ev.json 2> ev.err || { cat ev.err; exit 1; }
grep -q '"status"' ev.json || { echo "FAIL: dpref ev run wrote no result"; exit 1; }
echo "dpref ev run on the shipped example (shipped:ev/base_load_taylor.csv): ok"
# negative control: the same binary outside the installation finds no data (no fallback to a
# source or install path compiled into it)
mkdir -p elsewhere/bin
cp "$prefix/bin/dpref" elsewhere/bin/dpref
if elsewhere/bin/dpref "${ev_run[@]}" > /dev/null 2> elsewhere.err; then
  echo "FAIL: a copy of dpref outside the installation found the shipped data"; exit 1
fi
grep -q "not found" elsewhere.err || { cat elsewhere.err; exit 1; }
echo "negative control: a copy outside the installation: $(tail -n 1 elsewhere.err | cut -c1-90)..."
"$prefix/bin/dpref" reproduce --quick --papers linesearch --out report > reproduce.log 2>&1 ||
  { cat reproduce.log; exit 1; }
/usr/bin/python3 "$source_dir/tests/install/check_report.py" report
echo "ARCH.INSTALL consumer: passed"
