"""PY.PAPERS: the per-paper API dpref.<paper>.run(config, *, precision, **params) -> Result.

For every registered paper (dpref.papers(); accel joins when its runner is registered):
- Result.to_json() equals `dpref <paper> run --params FILE --precision P` output (parsed, then
  json.dumps(sort_keys=True)) byte for byte, at double and mp50;
- the ledger's to_json() is the CLI's privacy.ledger and re-accounting it with dpref.account
  gives the run's privacy.guarantee bit for bit;
- the numpy arrays (float64 at double, mpmath.mpf at mp50) equal the JSON values;
- overrides: a params field by name is applied (and equals the same change in the config);
  an unknown name is refused by the library's strict reader with its message;
- negative control: a modified config (another seed) gives a different result.
The configurations are the shipped examples/<paper>.json made short (SHORT) so each run takes
well under a second.
"""
import json
import math
import os
import tempfile

import numpy as np
import pytest

import dpref

# shorter runs of examples/<paper>.json (params fields)
SHORT = {
    "ev": {"iterations": 3, "optimum": False},
    "linesearch": {"max_it": 5, "diagnostics": True},  # (iterations does not apply to blsgd: HARD.APPLIES)
    "dda": {"iterations": 10, "trace_every": 5, "optimum": False, "diagnostics": True},
    "pwa": {"iterations": 20, "trace": True, "diagnostics": True},
    "accel": {},
}
SHORT_PROBLEM = {
    "ev": {"users": 200, "households": 1000.0},
    "linesearch": {"synthetic_n": 60},
    "dda": {"records": 60},
}
SHORT_NETWORK = {"dda": {"nodes": 5}}
# fields of the example that no longer apply after SHORT (refused if given: HARD.APPLIES)
SHORT_DROP = {"ev": ["optimum_max_iterations", "optimum_relative_gap"]}
# a second parameter each paper must accept by name (override test)
OVERRIDE = {"ev": ("epsilon", 0.25), "linesearch": ("epsilon", 0.5), "dda": ("epsilon", 0.5),
            "pwa": ("epsilon", 0.2), "accel": ("epsilon", 0.5)}

REGISTERED = dpref.papers()


def config_of(source_dir, paper):
    with open(source_dir / "examples" / f"{paper}.json") as f:
        cfg = json.load(f)
    cfg["params"].update(SHORT.get(paper, {}))
    for key in SHORT_DROP.get(paper, []):
        cfg["params"].pop(key, None)
    cfg.setdefault("problem", {}).update(SHORT_PROBLEM.get(paper, {}))
    if paper in SHORT_NETWORK:
        cfg["network"].update(SHORT_NETWORK[paper])
    return cfg


_RUNS = {}


def run_of(source_dir, paper, precision="double"):
    """dpref.<paper>.run on config_of(paper), once per (paper, precision) in the session (the
    mp50 runs are the slow part; every test reads the same Result)."""
    key = (paper, precision)
    if key not in _RUNS:
        _RUNS[key] = getattr(dpref, paper).run(config_of(source_dir, paper), precision=precision)
    return _RUNS[key]


def canonical(doc):
    return json.dumps(doc, sort_keys=True)


def cli_run(cli, paper, cfg, precision):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(cfg, f)
        path = f.name
    try:
        return cli.json(paper, "run", "--params", path, "--precision", precision)
    finally:
        os.unlink(path)


def test_every_known_paper_has_a_module():
    for p in ("ev", "linesearch", "dda", "pwa", "accel"):
        m = getattr(dpref, p)
        assert isinstance(m, dpref.PaperModule) and m.paper == p
        assert m.available() == (p in dpref.papers())
        assert "run" in (m.run.__doc__ or "")
    import importlib

    assert importlib.import_module("dpref.ev") is dpref.ev
    for p in REGISTERED:  # every registered paper gets its module, no Python change
        assert isinstance(getattr(dpref, p), dpref.PaperModule)


def test_every_known_paper_is_registered_and_others_are_refused_clearly():
    # the paper modules come from the compiled runner table (DPREF_PAPERS, cmake/papers.cmake)
    assert list(dpref._paper.KNOWN) == dpref.papers()
    for p in dpref.papers():
        assert isinstance(getattr(dpref, p), dpref.PaperModule)
    with pytest.raises(ValueError) as e:
        dpref.run("nope", {})
    assert str(e.value).startswith("dpref.run: paper must be one of ")
    assert str(e.value).endswith(", got 'nope'")


@pytest.mark.parametrize("precision", ["double", "long-double", "mp50"])
@pytest.mark.parametrize("paper", REGISTERED)
def test_result_equals_cli(cli, source_dir, paper, precision):
    cfg = config_of(source_dir, paper)
    r = run_of(source_dir, paper, precision)
    expected = cli_run(cli, paper, cfg, precision)
    assert canonical(r.to_json()) == canonical(expected)
    assert r.to_json()["schema"] == "dpref.result/1" and r.paper == paper
    assert (r.status, r.message, r.iterations, r.algorithm) == (
        expected["status"], expected["message"], expected["iterations"], expected["algorithm"])
    assert r.config == expected["config"]
    assert r.precision == expected["precision"]
    if precision == "long-double":  # arrays keep every digit of the long double text
        arrays = list(_leaves(expected["iterates"], r.iterates))
        assert arrays and all(a.dtype == np.longdouble for _, _, a in arrays)
        assert all(np.array_equal(a, np.asarray(np.asarray(j, dtype=str), dtype=np.longdouble))
                   for _, j, a in arrays)
    # the same run through the generic entry point (double: the mp50 runs are the slow part)
    if precision == "double":
        assert canonical(dpref.run(paper, cfg, precision=precision)) == canonical(expected)
    if expected["privacy"]["private"]:
        assert r.ledger.to_json() == expected["privacy"]["ledger"]
        assert canonical(r.ledger.to_json()) == canonical(expected["privacy"]["ledger"])
        assert r.privacy["guarantee"] == expected["privacy"]["guarantee"]
    else:
        assert r.ledger is None


@pytest.mark.parametrize("precision", ["double", "mp50"])
@pytest.mark.parametrize("paper", REGISTERED)
def test_ledger_reaccounts_bit_for_bit(source_dir, paper, precision):
    r = run_of(source_dir, paper, precision)
    if r.ledger is None:
        pytest.skip(f"{paper}'s example run is not private")
    g = r.privacy["guarantee"]
    a = r.ledger.account()
    assert a["guarantee"]["epsilon"] == g["epsilon"] and a["guarantee"]["delta"] == g["delta"]
    assert a["precision"] == precision
    if precision == "double":
        assert isinstance(a["guarantee"]["epsilon"], float)
    else:  # every digit of the mp50 value
        assert isinstance(a["guarantee"]["epsilon"], str) and len(a["guarantee"]["epsilon"]) > 40
    # explicit method: the ledger's own one gives the same value; another differs or is refused
    m = r.ledger.to_json()["accounting"].get("method")
    if m is not None:
        assert r.ledger.account(method=m)["guarantee"] == a["guarantee"]


def _leaves(json_value, arr_value, path=""):
    """(path, JSON leaf list, converted value) of every numeric list converted to an array."""
    if isinstance(json_value, dict):
        for k in json_value:
            yield from _leaves(json_value[k], arr_value[k], f"{path}/{k}")
    elif isinstance(arr_value, np.ndarray):
        yield path, json_value, arr_value
    elif isinstance(json_value, list) and isinstance(arr_value, list):
        for i, (x, y) in enumerate(zip(json_value, arr_value)):
            yield from _leaves(x, y, f"{path}/{i}")


@pytest.mark.parametrize("paper", REGISTERED)
def test_arrays_equal_json_values(source_dir, paper):
    import mpmath

    cfg = config_of(source_dir, paper)
    d = run_of(source_dir, paper)
    doc = d.to_json()
    n = 0
    for section in ("iterates", "trace", "non_private"):
        if section not in doc:  # PRIV.RELEASE: a private run without diagnostics
            assert getattr(d, section) is None, section
            continue
        for path, j, a in _leaves(doc[section], getattr(d, section), section):
            assert a.dtype == np.float64, path
            assert a.shape == np.asarray(j, dtype=float).shape, path
            # float64 of the JSON number (shortest round-trip text): the same double
            assert np.array_equal(a, np.asarray(j, dtype=float), equal_nan=True), path
            n += a.size
    assert n > 0, f"{paper}: no numeric array in the result"
    m = run_of(source_dir, paper, "mp50")
    mdoc = m.to_json()
    bits = dpref.precision_bits("mp50")
    k = wide = 0
    for section in ("iterates", "trace", "non_private"):
        if section not in mdoc:  # PRIV.RELEASE: a private run without diagnostics
            assert getattr(m, section) is None, section
            continue
        for path, j, a in _leaves(mdoc[section], getattr(m, section), section):
            assert a.dtype == object, path
            flat_j = np.asarray(j, dtype=object).reshape(-1)
            for x, y in zip(a.reshape(-1), flat_j):
                assert isinstance(x, mpmath.mpf)
                # the mpf is the C++ mp50 value: its decimal text reads back to the same value
                # and it is that text rounded to the 168-bit significand (not the double)
                with mpmath.workprec(bits):
                    assert x == mpmath.mpf(str(y)), path
                if x != 0 and float(x) != 0 and not mpmath.isinf(x):
                    assert x.man.bit_length() <= bits
                    # not rounded to a double on the way (mpmath's default precision is 53)
                    wide += x.man.bit_length() > 53
                k += 1
    assert k > 0 and wide > 0
    # the mp50 and double runs read the same Philox bits: their released arrays agree to
    # rounding level (independent of the conversions above)
    for (path, _, x), (_, _, y) in zip(_leaves(doc["iterates"], d.iterates, ""),
                                       _leaves(mdoc["iterates"], m.iterates, "")):
        assert x.shape == y.shape, path
        yd = np.array([float(v) for v in y.reshape(-1)]).reshape(y.shape)
        assert np.allclose(x, yd, rtol=1e-10, atol=1e-10 * max(1.0, np.abs(yd).max())), path


@pytest.mark.parametrize("paper", REGISTERED)
def test_overrides(cli, source_dir, paper):
    cfg = config_of(source_dir, paper)
    mod = getattr(dpref, paper)
    name, value = OVERRIDE[paper]
    r = mod.run(cfg, **{name: value})
    changed = json.loads(json.dumps(cfg))
    changed["params"][name] = value
    assert canonical(r.to_json()) == canonical(cli_run(cli, paper, changed, "double"))
    assert canonical(r.to_json()) != canonical(run_of(source_dir, paper).to_json())
    assert cfg["params"][name] != value  # the caller's config is not modified
    # an unknown field: the strict reader's own message
    with pytest.raises(ValueError) as e:
        mod.run(cfg, no_such_field=1)
    assert "no_such_field" in str(e.value)
    _, cli_msg = cli.error(paper, "run", "--params", _write(changed | {
        "params": changed["params"] | {"no_such_field": 1}}))
    assert "no_such_field" in cli_msg
    # a bad value: the message names the field and the value
    with pytest.raises(ValueError) as e:
        mod.run(cfg, epsilon=-1)
    assert "epsilon" in str(e.value) and "-1" in str(e.value)


def _write(doc):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(doc, f)
        return f.name


@pytest.mark.parametrize("paper", REGISTERED)
def test_negative_control_modified_config_differs(source_dir, paper):
    cfg = config_of(source_dir, paper)
    mod = getattr(dpref, paper)
    a = run_of(source_dir, paper)
    again = mod.run(cfg)
    assert canonical(a.to_json()) == canonical(again.to_json())  # same seed, same bytes
    other = json.loads(json.dumps(cfg))
    other["seed"] = cfg["seed"] + 1
    b = mod.run(other)
    assert canonical(a.to_json()) != canonical(b.to_json())
    if a.privacy["private"]:
        # the noise changes the released iterates
        la = list(_leaves(a.to_json()["iterates"], a.iterates))
        lb = list(_leaves(b.to_json()["iterates"], b.iterates))
        assert any(not np.array_equal(x[2], y[2]) for x, y in zip(la, lb))


def test_result_repr_and_types(source_dir):
    assert REGISTERED, "no paper registered"
    p = REGISTERED[0]
    r = getattr(dpref, p).run(config_of(source_dir, p))
    assert repr(r).startswith("Result(paper=")
    assert isinstance(r.iterations, int) and isinstance(r.status, str)
    assert math.isfinite(r.iterations)
