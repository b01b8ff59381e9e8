#!/usr/bin/env bash
# Scale benchmark of issue 17 item 7 (spec/distributed.md, cost model of DIST.EV; not run in
# CI): `dpref ev run` (Algorithm 2, per-user mode, K iterations, no optimum) at n users on 1 and
# P ranks; prints wall time, peak memory per rank (max RSS of the ranks, GNU time) and the bytes
# each rank receives per iteration by the cost model (16·T·B for the block sums, 8·T for p̂).
# usage: bench/ev_mpi_scale.sh DPREF "1000000 10000000" "0 1 2" [K]   (0: serial, no mpirun)
set -euo pipefail
dpref="$1"; sizes="$2"; ranks="$3"; K="${4:-20}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
src=$(cd "$(dirname "$0")/.." && pwd)
T=$(($(grep -v "^#" "$src/data/ev/base_load_taylor.csv" | grep -c .) - 1))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf "%10s %5s %4s %10s %14s %18s %s\n" n ranks T seconds max_rss_MB bytes_per_iter md5
for n in $sizes; do
  B=$(((n + 1023) / 1024))
  for p in $ranks; do
    args=(ev run --params "$src/examples/ev.json" --mode per_user --users "$n" --households "$n"
          --iterations "$K" --optimum=false --force)
    t0=$(date +%s.%N)
    if [ "$p" = 0 ]; then
      /usr/bin/time -f "%M" -o "$work/rss.0" "$dpref" "${args[@]}" > "$work/out" 2>/dev/null
    else
      mpirun --oversubscribe -np "$p" /usr/bin/time -f "%M" -a -o "$work/rss.$p" "$dpref" "${args[@]}" \
        > "$work/out" 2>/dev/null
    fi
    t1=$(date +%s.%N)
    rss=$(sort -n "$work/rss.$p" | tail -1)
    bytes=$((p <= 1 ? 0 : 16 * T * B + 8 * T))
    printf "%10s %5s %4s %10.2f %14.0f %18s %s\n" "$n" "$p" "$T" "$(echo "$t1 - $t0" | bc)" \
      "$(echo "$rss / 1024" | bc)" "$bytes" "$(md5sum < "$work/out" | cut -c1-12)"
    rm -f "$work/rss.$p"
  done
done
