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
# Exits non-zero on any failure. Prints the time of every phase.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS="${JOBS:-$(nproc)}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

phase() {
  local name="$1"
  shift
  echo "== ${name}"
  local t0=$SECONDS
  "$@"
  echo "== ${name}: $((SECONDS - t0)) s"
}

phase "release configure" cmake --preset release
phase "release build" cmake --build --preset release -j "$JOBS"
phase "release tests (CLI, Python, audit, mpi, catalogues, contracts)" ctest --preset release -j "$JOBS"

phase "sanitizer configure (ASan + UBSan)" cmake --preset dev
phase "sanitizer build" cmake --build --preset dev -j "$JOBS"
phase "sanitizer tests (unit, property, regression)" ctest --preset dev -j "$JOBS"

phase "ThreadSanitizer configure" cmake --preset tsan
phase "ThreadSanitizer build" cmake --build --preset tsan -j "$JOBS"
phase "ThreadSanitizer tests (label threads)" ctest --preset tsan -j "$JOBS"

phase "fuzz configure (clang + libFuzzer)" cmake --preset fuzz
phase "fuzz build" cmake --build --preset fuzz -j "$JOBS"
phase "fuzz smoke runs (60 s per target)" ctest --preset fuzz -j "$JOBS"
echo "run_tests: all phases passed"
