"""``python -m dpref ARGS`` — and the ``dpref`` command a wheel installs (pyproject.toml
``[project.scripts]``) — runs the ``dpref`` command-line tool installed with this package
(spec/python.md PY.WHEEL): the same process (``exec``), so exit codes, standard streams and
signals are the tool's own.

The binary is searched relative to the package, never in a source tree: ``dpref/bin/dpref``
(wheel), ``<prefix>/bin/dpref`` (``cmake --install``: the package is in
``<prefix>/lib/python3/dist-packages/dpref``), ``build/<preset>/src/dpref`` (build tree: the
package is ``build/<preset>/python/dpref``). The tool finds its data next to itself
(``../share/dpref``).
"""
import os
import sys

_CANDIDATES = ("bin/dpref", "../../../../bin/dpref", "../../src/dpref")


def executable() -> str:
    """Path of the ``dpref`` binary installed with this package.

    Raises ``FileNotFoundError`` naming the places searched."""
    here = os.path.dirname(os.path.abspath(__file__))
    paths = [os.path.normpath(os.path.join(here, c)) for c in _CANDIDATES]
    for p in paths:
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    raise FileNotFoundError("dpref: the command-line tool is not installed with this package "
                            f"(looked in: {', '.join(paths)})")


def main() -> None:
    try:
        exe = executable()
    except FileNotFoundError as e:
        print(e, file=sys.stderr)
        sys.exit(127)
    sys.stdout.flush()
    sys.stderr.flush()
    # argv[0] "dpref" as typed (usage lines, the command `dpref reproduce` records); the tool
    # finds itself through /proc/self/exe
    os.execv(exe, ["dpref"] + sys.argv[1:])


if __name__ == "__main__":
    main()
