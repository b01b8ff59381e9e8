"""Shared fixtures of the dpref Python tests (spec/python.md). ctest sets
PYTHONPATH=<build>/python, DPREF_CLI=<build>/src/dpref and DPREF_SOURCE_DIR=<repository>."""
import json
import os
import pathlib
import subprocess

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("DPREF_SOURCE_DIR",
                                         pathlib.Path(__file__).resolve().parents[2]))


@pytest.fixture(scope="session")
def source_dir():
    return SOURCE_DIR


@pytest.fixture(scope="session")
def cli_path():
    path = os.environ.get("DPREF_CLI")
    if not path or not os.path.exists(path):
        pytest.skip("DPREF_CLI (the built dpref executable) is not set")
    return path


class Cli:
    def __init__(self, path):
        self.path = path

    def run(self, *args, check=True, stdin=None):
        r = subprocess.run([self.path, *map(str, args)], capture_output=True, text=True,
                           input=stdin)
        if check and r.returncode != 0:
            raise AssertionError(f"dpref {' '.join(map(str, args))} failed ({r.returncode}): "
                                 f"{r.stderr}")
        return r

    def json(self, *args):
        return json.loads(self.run(*args).stdout)

    def error(self, *args):
        """The message of a failing command: stderr without the "dpref: <kind>: " prefix."""
        r = self.run(*args, check=False)
        assert r.returncode != 0, f"dpref {args} succeeded"
        line = r.stderr.strip().splitlines()[-1]
        for prefix in ("dpref: invalid input: ", "dpref: internal error: ",
                       "dpref: budget exceeded: "):
            if line.startswith(prefix):
                return r.returncode, line[len(prefix):]
        return r.returncode, line


@pytest.fixture(scope="session")
def cli(cli_path):
    return Cli(cli_path)
