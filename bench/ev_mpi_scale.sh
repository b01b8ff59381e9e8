#!/usr/bin/env bash
# Scale benchmark of issue 17 item 7 (spec/distributed.md, cost model of DIST.EV; not run in
# CI): `dpref ev run` (Algorithm 2, per-user mode, K iterations, no optimum, so each rank draws
# only its users' specs) at n users, serially and on P ranks. Prints wall time, the peak memory
# of every rank (max RSS, GNU time; rank order is not known, so the values are sorted), the
# machine load (uptime's 1-minute average) before the run, and the bytes rank 0 and the last
# rank RECEIVED, measured by the MPI communicator (DPREF_MPI_TRAFFIC): per iteration (the
# all-gathers of block sums and of p̂, divided by K) and once per run (the gather of the
# schedules to rank 0, the point-to-point initial-load chain received by the last rank).
# usage: bench/ev_mpi_scale.sh DPREF "1000000 10000000" "0 1 2" [K]   (0: serial, no mpirun)
set -euo pipefail
dpref="$1"; sizes="$2"; ranks="$3"; K="${4:-20}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
src=$(cd "$(dirname "$0")/.." && pwd)
T=$(($(grep -v "^#" "$src/data/ev/base_load_taylor.csv" | grep -c .) - 1))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf "%9s %5s %6s %9s %-22s %-30s %-24s %s\n" n ranks load seconds "max_rss_MB(per rank)" \
  "bytes/iter recv (r0, last)" "once: gather r0, chain" md5
for n in $sizes; do
  for p in $ranks; do
    args=(ev run --params "$src/examples/ev.json" --mode per_user --users "$n" --households "$n"
          --iterations "$K" --optimum=false --force)
    load=$(cut -d' ' -f1 /proc/loadavg)
    rm -f "$work/rss" "$work/err"
    t0=$(date +%s.%N)
    if [ "$p" = 0 ]; then
      /usr/bin/time -f "%M" -o "$work/rss" "$dpref" "${args[@]}" > "$work/out" 2> "$work/err"
    else
      DPREF_MPI_TRAFFIC=1 mpirun --oversubscribe -x DPREF_MPI_TRAFFIC -np "$p" \
        /usr/bin/time -f "%M" -a -o "$work/rss" "$dpref" "${args[@]}" > "$work/out" 2> "$work/err"
    fi
    t1=$(date +%s.%N)
    rss=$(sort -n "$work/rss" | awk '{printf "%s%d", (NR > 1 ? "," : ""), $1 / 1024}')
    per_iter="-"; once="-"
    if [ "$p" != 0 ]; then
      r0=$(grep "rank 0 of" "$work/err" || true)
      rl=$(grep "rank $((p - 1)) of" "$work/err" || true)
      field() { echo "$1" | sed -n "s/.* $2 \([0-9]*\).*/\1/p"; }
      # per iteration: block sums (all-gather) and p̂ (all-gather from rank 0) on every rank;
      # rank 0 also received the initial load (T values) from the last rank once (P > 1)
      sub=$((p > 1 ? 8 * T : 0))
      per_iter="$((($(field "$r0" allgather) - sub) / K)),$(($(field "$rl" allgather) / K))"
      once="$(field "$r0" gather),$(field "$rl" exchange)"
    fi
    printf "%9s %5s %6s %9.2f %-22s %-30s %-24s %s\n" "$n" "$p" "$load" "$(echo "$t1 - $t0" | bc)" \
      "$rss" "$per_iter" "$once" "$(md5sum < "$work/out" | cut -c1-12)"
  done
done
