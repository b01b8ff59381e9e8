#!/usr/bin/env bash
# Installs every build, test and benchmark dependency from Debian's packages (run as root or
# with sudo). Idempotent. MPI (distributed runs), clang + libFuzzer (fuzz targets, ThreadSanitizer
# is gcc's), chromium (the report's browser test), ccache (faster rebuilds) and the Python
# packaging tools (pyproject.toml: scikit-build, build, wheel, pip, venv) are included so that CI
# runs every test.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
PACKAGES=(
  build-essential cmake ninja-build git python3 python3-numpy python3-matplotlib clang-format
  pybind11-dev python3-dev python3-scipy python3-mpmath python3-pytest python3-jsonschema
  python3-skbuild python3-build python3-wheel python3-pip python3-venv
  libeigen3-dev libboost-dev libmpfr-dev libmpfi-dev libgmp-dev librandom123-dev
  libgtest-dev libgmock-dev librapidcheck-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev libfmt-dev
  libglpk-dev
  libopenmpi-dev openmpi-bin
  clang libclang-rt-14-dev ccache
  chromium
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "install_deps: all ${#PACKAGES[@]} packages present"
