#!/bin/sh
# dda §5 study in one command (spec/dda.md DDA.STUDY): Fashion-MNIST (classes 0 vs 1) and
# grants_other, n = 20, complete supergraph, 1 or 2 edges per step, ℓ2- and ℓ1-SVM,
# ε ∈ {0.2,…,1}, three calibrations + non-private; JSON + PNG.
# Usage: scripts/dda_study.sh [path/to/dpref] [outdir]   (data: scripts/real_data.sh)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dpref=${1:-$here/../build/release/src/dpref}
out=${2:-$here/../build/dda_study}
mkdir -p "$out"
"$dpref" dda study --data-dir "$here/../data/real" -o "$out/dda_study.json"
/usr/bin/python3 "$here/dda_study_plots.py" "$out/dda_study.json" "$out"
