#!/usr/bin/env bash
# Cold timings (spec/ci.md CI.TIMINGS): README's first command and then the CI test suite
# (scripts/run_tests.sh) from a fresh clone of HEAD with ccache disabled, each phase timed; prints
# the phase table and the ten slowest translation units (scripts/ci_budget.py) and, with
# --write-profile, records the cold compile times as scripts/ci_cold_profile.json (commit it).
#
# usage: scripts/ci_timings.sh [--readme-only] [--write-profile] [--keep] [--dir DIR]
#   --readme-only    time README's first command only (install, build dpref_cli + dpref_python,
#                    dpref reproduce --quick)
#   --write-profile  copy the measured cold profile into this checkout's scripts/
#   --keep           keep the scratch clone (default: removed)
#   --dir DIR        clone into DIR (must not exist; default: a fresh mktemp folder)
# Takes as long as a cold CI run (the budget is 40 minutes on 2 cores); run it on an idle machine.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
readme_only=0 write_profile=0 keep=0 dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --readme-only) readme_only=1 ;;
    --write-profile) write_profile=1 ;;
    --keep) keep=1 ;;
    --dir)
      [ $# -ge 2 ] || { echo "ci_timings: --dir needs a folder" >&2; exit 2; }
      dir="$2"
      shift
      ;;
    *) echo "ci_timings: unknown argument '$1' (see the usage at the top of $0)" >&2; exit 2 ;;
  esac
  shift
done
if [ -z "$dir" ]; then
  dir=$(mktemp -d)/dpref
elif [ -e "$dir" ]; then
  echo "ci_timings: --dir must not exist (a fresh clone), got '$dir'" >&2
  exit 2
fi
[ "$keep" = 1 ] || trap 'rm -rf "$dir"' EXIT
git clone --quiet --no-local "$root" "$dir"
cd "$dir"
export CCACHE_DISABLE=1
echo "ci_timings: fresh clone of $(git rev-parse --short HEAD) in $dir, ccache disabled," \
  "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

t0=$SECONDS
bash scripts/install_deps.sh > install.log 2>&1
t_install=$((SECONDS - t0))
t0=$SECONDS
# README's first command after install_deps.sh, verbatim
cmake --preset release > readme.log 2>&1
cmake --build --preset release -j2 --target dpref_cli dpref_python >> readme.log 2>&1
t_build=$((SECONDS - t0))
t0=$SECONDS
./build/release/src/dpref reproduce --quick --out report/ >> readme.log 2>&1
t_reproduce=$((SECONDS - t0))
echo "README's first command: install ${t_install} s, configure + build ${t_build} s," \
  "reproduce --quick ${t_reproduce} s, total $((t_install + t_build + t_reproduce)) s"
python3 - build/release/.ninja_log <<'EOF'
import sys
rows = {}
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if len(f) >= 4 and f[0].isdigit():
        rows[f[3]] = (int(f[1]) - int(f[0])) / 1000
cpu = sum(rows.values())
print(f"README build: {len(rows)} edges, {cpu / 60:.1f} CPU-min; ten slowest:")
for out, sec in sorted(rows.items(), key=lambda r: -r[1])[:10]:
    print(f"  {sec:8.1f}  {out}")
EOF
[ "$readme_only" = 1 ] && exit 0

# .ci/run from nothing built: the same clone without README's build tree
rm -rf build report
t0=$SECONDS
if ! bash scripts/run_tests.sh > run_tests.log 2>&1; then
  tail -n 50 run_tests.log
  echo "ci_timings: scripts/run_tests.sh failed after $((SECONDS - t0)) s (log: $dir/run_tests.log)"
  exit 1
fi
echo "CI test suite (scripts/run_tests.sh, cold): $((SECONDS - t0)) s" \
  "(+ install ${t_install} s = .ci/run)"
args=()
[ "$write_profile" = 1 ] && args=(--write-profile)
python3 scripts/ci_budget.py build/ci "${args[@]}" || true
if [ "$write_profile" = 1 ]; then
  cp scripts/ci_cold_profile.json "$root/scripts/ci_cold_profile.json"
  echo "ci_timings: wrote $root/scripts/ci_cold_profile.json"
fi
