#!/bin/sh
# CONF.CORPUS: the committed corpus is exactly what `dpref vectors` writes.
# usage: regenerate.sh DPREF COMMITTED SCRATCH   compare a fresh regeneration with COMMITTED
#                                                byte for byte (ctest CONF_CORPUS)
#        regenerate.sh --update [DPREF]          rewrite data/conformance with a fresh
#                                                regeneration (default DPREF:
#                                                build/release/src/dpref), check dpref passes it and
#                                                print the MANIFEST's counts and digests
set -eu
if [ "${1:-}" = "--update" ]; then
  root=$(cd "$(dirname "$0")/../.." && pwd)
  dpref=${2:-$root/build/release/src/dpref}
  tmp="$root/data/conformance.new"
  rm -rf "$tmp"
  trap 'rm -rf "$tmp"' EXIT  # a failed generation leaves data/conformance as it was
  "$dpref" vectors --out "$tmp"
  rm -rf "$root/data/conformance"
  mv "$tmp" "$root/data/conformance"
  "$dpref" check-vectors "$root/data/conformance" | tail -n 2
  python3 -c 'import json, sys
for f in json.load(open(sys.argv[1]))["families"]:
    print("%-34s %4d vectors  sha256 %s" % (f["file"], f["vectors"], f["sha256"]))' \
    "$root/data/conformance/MANIFEST.json"
  echo "data/conformance regenerated: review 'git diff --stat data/conformance' and commit it"
  exit 0
fi
dpref=$1 committed=$2 scratch=$3
rm -rf "$scratch"
"$dpref" vectors --out "$scratch"
if ! diff -r "$committed" "$scratch" > "$scratch.diff"; then
  head -c 4000 "$scratch.diff"
  echo "CONF.CORPUS: the corpus changed; if intended, bump conformance::corpus_version when the"
  echo "meaning changed and run: tests/conformance/regenerate.sh --update"
  exit 1
fi
echo "CONF.CORPUS: $(find "$scratch" -name '*.json' | wc -l) files regenerated bit for bit"
