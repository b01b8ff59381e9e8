"""Build script of the dpref wheel (pyproject.toml; spec/python.md PY.WHEEL).

scikit-build configures the CMake project in _skbuild/ (Release, no tests, no benchmarks),
builds the target `dpref_wheel_install` — the extension dpref._core, the command-line tool and
`cmake --install --component wheel` into its staging prefix (cmake/dpref_install.cmake) — and
setuptools packages python/dpref as laid out there:

    dpref/*.py, *.pyi, py.typed, _core.cpython-*.so   the package and its type stubs
    dpref/bin/dpref                                   the command-line tool (the `dpref` command,
                                                      [project.scripts], execs it)
    dpref/share/dpref/...                             the data the tool and the package read
                                                      (found relative to themselves)

DPREF_CMAKE_BUILD_DIR=<build tree> (e.g. build/release, configured with the Python package and
the CLI) packages that tree instead of compiling a new one: it is brought up to date
(`cmake --build <tree> --target dpref_cli dpref_python`, nothing to do when it is), its component
`wheel` is installed into scikit-build's staging prefix and scikit-build runs with --skip-cmake.
The tree must have been built for the interpreter that builds the wheel.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import warnings

from skbuild import setup
from skbuild.constants import CMAKE_BUILD_DIR, CMAKE_INSTALL_DIR

ROOT = os.path.dirname(os.path.abspath(__file__))
# commands that package built files (not the metadata-only ones such as egg_info / dist_info)
BUILD_COMMANDS = {"bdist_wheel", "build", "build_ext", "install", "develop"}


def version() -> str:
    with open(os.path.join(ROOT, "include", "dpref", "version.hpp"), encoding="utf-8") as f:
        m = re.search(r'version = "([^"]+)"', f.read())
    if not m:
        raise SystemExit("setup.py: no version in include/dpref/version.hpp")
    return m.group(1)


def stage_existing_build(build_dir: str) -> None:
    """Installs the component `wheel` of an already built CMake tree where scikit-build would
    have put it, and tells scikit-build to skip CMake."""
    build_dir = os.path.abspath(build_dir)
    if not os.path.isfile(os.path.join(build_dir, "CMakeCache.txt")):
        raise SystemExit(f"setup.py: DPREF_CMAKE_BUILD_DIR={build_dir} is not a CMake build tree")
    subprocess.run(["cmake", "--build", build_dir, "--target", "dpref_cli", "dpref_python"],
                   check=True)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    if not glob.glob(os.path.join(build_dir, "python", "dpref", "_core" + suffix)):
        raise SystemExit(f"setup.py: {build_dir} has no dpref/_core{suffix}: it was built for "
                         f"another Python than {sys.executable} (-DPython3_EXECUTABLE)")
    shutil.rmtree(CMAKE_INSTALL_DIR(), ignore_errors=True)
    os.makedirs(CMAKE_BUILD_DIR(), exist_ok=True)
    for old in glob.glob(os.path.join(CMAKE_BUILD_DIR(), "install_manifest*.txt")):
        os.remove(old)
    subprocess.run(["cmake", "--install", build_dir, "--component", "wheel", "--prefix",
                    os.path.join(CMAKE_INSTALL_DIR(), "python")], check=True)
    shutil.copy(os.path.join(build_dir, "install_manifest_wheel.txt"), CMAKE_BUILD_DIR())
    sys.argv.insert(1, "--skip-cmake")


# dpref/bin and dpref/share/dpref/... are data folders of the package, not Python packages:
# setuptools warns once per folder that such data "is deprecated" without listing them
warnings.filterwarnings("ignore", message=r"\s*Installing '.*' as data is deprecated")

if os.environ.get("DPREF_CMAKE_BUILD_DIR") and BUILD_COMMANDS & set(sys.argv[1:]):
    stage_existing_build(os.environ["DPREF_CMAKE_BUILD_DIR"])

setup(
    version=version(),
    packages=["dpref"],
    package_dir={"": "python"},
    cmake_install_dir="python",
    cmake_install_target="dpref_wheel_install",
    cmake_languages=("CXX",),
    cmake_minimum_required_version="3.25",
    cmake_args=["-DDPREF_BUILD_TESTS=OFF", "-DDPREF_BUILD_BENCH=OFF", "-DDPREF_BUILD_CLI=ON",
                "-DDPREF_BUILD_PYTHON=ON"],
)
