"""PY.RUN: the extension point of the papers' algorithms. dpref.run(paper, config) dispatches
through the table of src/papers/papers.hpp to the paper's run_json<Real>; papers() lists what is
registered (nothing pretends to exist: unknown papers are refused naming the registered ones).
PY.RUN.EXTENSION: a test-only entry registered from C++ (dpref._core._test_register_echo) goes
through the same path as a real paper: JSON config in, result document out, precision
dispatch."""
import pytest

import dpref
from dpref import _core

PAPERS = {"ev", "pwa", "accel", "linesearch", "dda"}


def test_only_registered_papers_are_listed_and_run():
    names = dpref.papers()
    assert isinstance(names, list) and set(names) <= PAPERS | {"echo"}
    missing = sorted(PAPERS - set(names))
    for p in missing:
        with pytest.raises(ValueError) as e:
            dpref.run(p, {})
        assert str(e.value).startswith("dpref.run: paper must be one of ")
        assert str(e.value).endswith(f", got '{p}'")


def test_extension_point_dispatches_config_and_precision():
    _core._test_register_echo()
    assert "echo" in dpref.papers()
    r = dpref.run("echo", {"params": {"epsilon": 0.5, "iterations": 3}, "seed": 1})
    assert r["schema"] == "dpref.result/1" and r["paper"] == "echo"
    assert r["config"] == {"params": {"epsilon": "0.5", "iterations": "3"}, "seed": "1"} or \
        r["config"] == {"params": {"epsilon": 0.5, "iterations": 3}, "seed": 1}
    assert r["precision"] == "double" and r["third"] == 1 / 3
    m = dpref.run("echo", {}, precision="mp50")
    assert m["precision"] == "mp50" and m["third"].startswith("3.33333333333333333333333333333")
    f = dpref.run("echo", {}, precision="mpfr:80")
    assert f["precision"] == "mpfr" and len(f["third"].split("e")[0]) > 80
    with pytest.raises(ValueError, match="precision must be"):
        dpref.run("echo", {}, precision="single")
