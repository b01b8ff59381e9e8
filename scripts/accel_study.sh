#!/bin/sh
# The accel paper's figures at paper size (spec/accel.md, "Study"): Figures 1-2, Figures 3-4 on
# synthetic data (n = 1e5, 20 runs, the paper's data-based L declared public: --paper-L), and
# the same comparison on Fertility (data/real/fertility.csv from scripts/real_data.sh; public
# schema bound ||u||_1 <= 7; 20 runs). JSON + PNG into OUTDIR (default accel_study/).
# Usage: scripts/accel_study.sh [outdir] [dpref binary] [runs]
# Single-threaded; see spec/accel.md for measured iterations/s and times.
set -eu
out=${1:-accel_study}
dpref=${2:-build/release/src/dpref}
runs=${3:-20}
here=$(dirname "$0")
mkdir -p "$out"
"$dpref" accel study --paper-L --runs "$runs" --out "$out/accel_study_synthetic.json" --png-dir "$out"
if [ ! -f "$here/../data/real/fertility.csv" ]; then
  echo "accel_study: data/real/fertility.csv missing: run scripts/real_data.sh first" >&2
  exit 1
fi
"$dpref" accel study --data "$here/../data/real/fertility.csv" --runs "$runs" \
  --out "$out/accel_study_fertility.json" --png-dir "$out"
echo "accel_study: wrote $(ls "$out" | tr '\n' ' ')"
