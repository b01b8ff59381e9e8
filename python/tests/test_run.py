"""PY.RUN: the extension point of the papers' algorithms. dpref.run(paper, config) dispatches
through the table of src/papers/papers.hpp to the paper's run_json<Real>; papers() lists what is
registered (nothing pretends to exist: unknown papers are refused naming the registered ones).
The extension point carries a paper's JSON config in and its result document out, at the precision
asked for (a real paper with a tiny configuration: the shipped module registers no test entry)."""
import pytest

import dpref

def test_only_registered_papers_are_listed_and_run():
    # the five papers, in the order of src/papers/papers.hpp; no test entry in the shipped module
    assert dpref.papers() == ["ev", "linesearch", "dda", "pwa", "accel"]
    for p in ("echo", "nope"):
        with pytest.raises(ValueError) as e:
            dpref.run(p, {})
        assert str(e.value) == ("dpref.run: paper must be one of ev, linesearch, dda, pwa, accel, "
                                f"got '{p}'")


def test_extension_point_dispatches_config_and_precision():
    # a real paper with a tiny configuration (pwa, one step of the private subgradient method on
    # a 20 x 2 instance, milliseconds at every precision): the config goes in as JSON, the
    # result document comes out at the precision asked for
    cfg = {"problem": {"m": 20, "d": 2, "data_seed": 1},
           "params": {"epsilon": 0.5, "iterations": 1}, "seed": 1}
    r = dpref.run("pwa", cfg)
    assert r["schema"] == "dpref.result/1" and r["paper"] == "pwa"
    assert r["precision"] == "double" and r["iterations"] == 1
    assert r["config"]["params"]["epsilon"] == 0.5 and r["config"]["seed"] == 1
    assert r["config"]["problem"]["m"] == 20
    x = r["iterates"]["x"]
    assert len(x) == 2 and all(isinstance(v, float) for v in x)
    # the config is used: another seed gives another release, the same one the same bytes
    assert dpref.run("pwa", dict(cfg, seed=2))["iterates"]["x"] != x
    assert dpref.run("pwa", cfg) == r
    m = dpref.run("pwa", cfg, precision="mp50")
    assert m["precision"] == "mp50"
    assert m["config"]["params"]["epsilon"].startswith("5.000000000000000000000000000000000000")
    assert all(isinstance(v, str) and len(v.split("e")[0]) > 50 for v in m["iterates"]["x"])
    assert [abs(float(a) - b) < 1e-12 for a, b in zip(m["iterates"]["x"], x)] == [True, True]
    f = dpref.run("pwa", cfg, precision="mpfr:80")
    assert f["precision"] == "mpfr" and len(f["iterates"]["x"][0].split("e")[0]) > 80
    with pytest.raises(ValueError, match="precision must be"):
        dpref.run("pwa", cfg, precision="single")
