#!/usr/bin/env bash
# The CI test suite: builds the release preset (warnings as errors) and runs every test label
# but `slow`, then builds the dev preset (Debug + ASan + UBSan) and runs the unit, property and
# regression labels under the sanitizers. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS="${JOBS:-$(nproc)}"

echo "== release build"
cmake --preset release
time cmake --build --preset release -j "$JOBS"
echo "== release tests (all labels but slow)"
ctest --preset release -j "$JOBS"

echo "== sanitizer build (ASan + UBSan)"
cmake --preset dev
time cmake --build --preset dev -j "$JOBS"
echo "== sanitizer tests (unit, property, regression)"
ctest --preset dev -j "$JOBS"
