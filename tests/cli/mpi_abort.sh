#!/usr/bin/env bash
# DIST.ABORT (spec/distributed.md): an error on one rank aborts every rank promptly with its
# message. Runs `mpirun -np 3` as one MPI job of three programs (MPMD): ranks 0 and 2 get ARGS,
# rank 1 alone gets ARGS plus BAD (an invalid input only that rank sees), so rank 1 fails while
# the others work and then wait for it. Requires: a non-zero exit status, within LIMIT seconds
# (`timeout`: a rank left waiting in a collective would hang the job), standard error matching
# WANT (grep -E; not anchored: another rank's progress line may share its line), and no report
# on standard output (rank 0 never got to write one).
# usage: mpi_abort.sh DPREF LIMIT "BAD ARGS" WANT -- ARGS...
# With BAD empty every rank runs the same valid command and the check must fail (the negative
# control DIST_ABORT_control).
set -uo pipefail
dpref="$1"; limit="$2"; bad="$3"; want="$4"; shift 4
[ "${1:-}" = "--" ] && shift
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
read -r -a bad_args <<< "$bad"
start=$(date +%s%N)
rc=0
timeout "$limit" mpirun --oversubscribe -np 1 "$dpref" "$@" : -np 1 "$dpref" "$@" "${bad_args[@]}" \
  : -np 1 "$dpref" "$@" > "$work/out" 2> "$work/err" || rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
cat "$work/err"
fail() { echo "mpi_abort: FAIL: $*"; exit 1; }
[ "$rc" = 124 ] && fail "the job did not end within $limit s (a rank waits forever)"
[ "$rc" = 0 ] && fail "exit status 0 (no rank failed)"
grep -Eq "$want" "$work/err" || fail "standard error does not match '$want'"
[ -s "$work/out" ] && fail "a report was written to standard output: $(head -c 200 "$work/out")"
echo "mpi_abort: every rank ended with status $rc after $ms ms; the failing rank's message was printed"
