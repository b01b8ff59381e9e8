#!/bin/sh
# Deterministic CI-sized subset of the Fertility data (linesearch regression tests): the header,
# the source comment and every 84th data row of data/real/fertility.csv (rows 0, 84, 168, ...),
# 3,000 rows. Run scripts/real_data.sh first. Output (committed):
#   tests/regression/data/linesearch_fertility_3000.csv
# Usage: scripts/linesearch_make_subset.sh [data/real/fertility.csv] [outfile]
set -eu
root=$(dirname "$0")/..
src=${1:-$root/data/real/fertility.csv}
out=${2:-$root/tests/regression/data/linesearch_fertility_3000.csv}
awk 'BEGIN { k = 0 }
     /^#/ { print "# every 84th row of: " substr($0, 3); next }
     !h { print; h = 1; next }
     { if (k % 84 == 0 && n < 3000) { print; n++ } k++ }' "$src" > "$out"
echo "$out: $(grep -vc '^#' "$out") lines (header included)"
