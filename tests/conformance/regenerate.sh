#!/bin/sh
# CONF.CORPUS: `dpref vectors` regenerates the committed corpus bit for bit.
# usage: regenerate.sh <dpref> <committed corpus> <scratch folder>
set -eu
dpref=$1 committed=$2 scratch=$3
rm -rf "$scratch"
"$dpref" vectors --out "$scratch"
if ! diff -r "$committed" "$scratch" > "$scratch.diff"; then
  head -c 4000 "$scratch.diff"
  echo "CONF.CORPUS: the corpus changed; if intended, bump conformance::corpus_version when the"
  echo "meaning changed and run: dpref vectors --out data/conformance"
  exit 1
fi
echo "CONF.CORPUS: $(find "$scratch" -name '*.json' | wc -l) files regenerated bit for bit"
