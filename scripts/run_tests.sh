#!/usr/bin/env bash
# The CI test suite (README's test command; .ci/run runs exactly this after install_deps):
#   1. release build (warnings as errors; DPREF_TESTS_SPLIT: the CLI, the Python package and the
#      test executables phase 2 does not build) and its tests: audit, mpi (ranks 1-3,
#      byte-identical to serial), the Python package's pytest suite, the CLI tests, the bad-input
#      catalogue and the per-paper run-contract checks;
#   2. ASan + UBSan build (dev preset: the library's unit, property and regression test
#      executables, no CLI, which phase 1 tests and the fuzz phase exercises under ASan) and
#      those labels;
#   3. ThreadSanitizer build of the threaded tests (label threads);
#   4. libFuzzer smoke run of every fuzz target (60 s each, label fuzz, clang).
# Exits non-zero on any failure. Prints the time of every phase and checks the cold-run budget
# (scripts/ci_budget.py).
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS="${JOBS:-$(nproc)}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# CI.BUDGET (spec/ci.md): every phase's time goes to build/ci/phases.tsv, the lines ninja appends
# to each build's log to build/ci/<preset>.edges and ccache's per-compilation results to
# build/ci/ccache.log; scripts/ci_budget.py prints the phase table, the hit rate, the ten slowest
# translation units and the run's cold estimate, and fails over DPREF_CI_BUDGET_MINUTES (60)
# with a message (spec/ci.md).
ci_dir="$PWD/build/ci"
mkdir -p "$ci_dir"
: > "$ci_dir/phases.tsv"
rm -f "$ci_dir"/*.edges "$ci_dir/ccache.log"
export CCACHE_STATSLOG="$ci_dir/ccache.log"

phase() {
  local kind="$1" preset="$2" name="$3"
  shift 3
  echo "== ${name}"
  local log="build/${preset}/.ninja_log" lines=0
  [ -f "$log" ] && lines=$(wc -l < "$log")
  local t0=$SECONDS
  "$@"
  local dt=$((SECONDS - t0))
  echo "== ${name}: ${dt} s"
  printf '%s\t%s\t%s\t%s\n' "$kind" "$preset" "$dt" "$name" >> "$ci_dir/phases.tsv"
  if [ "$kind" = build ] && [ -f "$log" ]; then
    tail -n +$((lines + 1)) "$log" > "$ci_dir/${preset}.edges"
  fi
}

phase configure release "release configure" cmake --preset release
phase build release "release build" cmake --build --preset release -j "$JOBS"
phase test release "release tests (CLI, Python, audit, mpi, catalogues, contracts)" \
  ctest --preset release -j "$JOBS"

phase configure dev "sanitizer configure (ASan + UBSan)" cmake --preset dev
phase build dev "sanitizer build" cmake --build --preset dev -j "$JOBS"
phase test dev "sanitizer tests (unit, property, regression)" ctest --preset dev -j "$JOBS"

phase configure tsan "ThreadSanitizer configure" cmake --preset tsan
phase build tsan "ThreadSanitizer build" cmake --build --preset tsan -j "$JOBS"
phase test tsan "ThreadSanitizer tests (label threads)" ctest --preset tsan -j "$JOBS"

phase configure fuzz "fuzz configure (clang + libFuzzer)" cmake --preset fuzz
phase build fuzz "fuzz build" cmake --build --preset fuzz -j "$JOBS"
phase test fuzz "fuzz smoke runs (60 s per target)" ctest --preset fuzz -j "$JOBS"
echo "run_tests: all phases passed"
# fails when the run's cold estimate exceeds the budget (spec/ci.md CI.BUDGET)
phase test - "CI time budget (scripts/ci_budget.py)" python3 scripts/ci_budget.py "$ci_dir" \
  --jobs "$JOBS"
