#!/usr/bin/env bash
# Runs a dpref command serially and under `mpirun -np P` for P in RANKS (default "1 2 3") and
# requires byte-identical standard output and the same exit status (spec/distributed.md
# DIST.AUDIT).
# usage: mpi_identical.sh DPREF "1 2 3" -- ARGS...
set -euo pipefail
dpref="$1"; ranks="$2"; shift 2
[ "$1" = "--" ] && shift
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rc_serial=0
"$dpref" "$@" > "$work/serial.out" || rc_serial=$?
for p in $ranks; do
  rc=0
  mpirun --oversubscribe -np "$p" "$dpref" "$@" > "$work/np$p.out" || rc=$?
  if [ "$rc" != "$rc_serial" ]; then
    echo "mpi_identical: exit status with $p rank(s) is $rc, serial $rc_serial"
    exit 1
  fi
  if ! cmp -s "$work/serial.out" "$work/np$p.out"; then
    echo "mpi_identical: output with $p rank(s) differs from the serial run:"
    diff "$work/serial.out" "$work/np$p.out" | head -20
    exit 1
  fi
  echo "mpi_identical: $p rank(s): identical (exit $rc, $(wc -c < "$work/np$p.out") bytes, md5 $(md5sum < "$work/np$p.out" | cut -c1-12))"
done
