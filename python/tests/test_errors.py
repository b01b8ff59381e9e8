"""PY.ERRORS: C++ exceptions become Python exceptions with the C++ message: ValueError for
std::invalid_argument / std::domain_error (dpref::invalid_parameter included),
dpref.BudgetExceeded for accounting::budget_exceeded, RuntimeError otherwise. Each message is
compared with the one the CLI prints for the same input."""
import json

import pytest

import dpref


def test_sampler_domain_error_is_value_error_with_the_cli_message(cli):
    rc, msg = cli.error("sample", "-d", "laplace", "-p", "-1", "-n", "1")
    assert rc == 3
    assert msg == "dpref::laplace: b must be finite and > 0, got -1"
    with pytest.raises(ValueError) as e:
        dpref.sample("laplace", 1, params={"b": -1}, seed=0)
    assert str(e.value) == msg
    rc, msg = cli.error("sample", "-d", "gaussian", "-p", "0", "--precision", "mp50", "-n", "1")
    with pytest.raises(ValueError) as e:
        dpref.sample("gaussian", 1, params=0, seed=0, precision="mp50")
    assert str(e.value) == msg == "dpref::gaussian: sigma must be finite and > 0, got 0"


def test_secure_sampler_message(cli):
    rc, msg = cli.error("sample", "-d", "discrete-laplace", "-p", "0/1", "-n", "1")
    with pytest.raises(ValueError) as e:
        dpref.sample("discrete-laplace", 1, params={"t": "0/1"}, seed=0)
    assert str(e.value) == msg


def test_ledger_errors_have_the_cli_messages(cli, tmp_path):
    bad = [
        {"accounting": {"delta": 1e-5}, "events": [{"mechanism": "gaussian", "sensitivity": 1,
                                                     "sigma": -1, "count": 1}]},
        {"accounting": {"delta": 1e-5}, "events": [{"mechanism": "gaussian", "sensitivity": 1,
                                                     "sigma": 1, "count": 1, "colour": 2}]},
        {"accounting": {"delta": 0}, "events": [{"mechanism": "gaussian", "sensitivity": 1,
                                                  "sigma": 1, "count": 1}]},
        {"accounting": {}, "events": [{"mechanism": "cauchy", "count": 1}]},
        {"accounting": {}, "events": [{"mechanism": "pure", "epsilon": 1, "count": 1.5}]},
    ]
    for i, doc in enumerate(bad):
        f = tmp_path / f"bad{i}.json"
        f.write_text(json.dumps(doc))
        rc, msg = cli.error("account", f, "--json")
        assert rc == 3
        with pytest.raises(ValueError) as e:
            dpref.account(f)
        assert str(e.value) == msg
        # the same document from Python objects: the same message with the source renamed
        with pytest.raises(ValueError) as e:
            dpref.account(doc)
        assert str(e.value) == msg.replace(str(f), "dpref.account")


def test_precision_and_other_errors(cli):
    with pytest.raises(ValueError) as e:
        dpref.sample("laplace", 1, seed=0, precision="quad")
    assert str(e.value) == ("precision must be double, long-double, mp50 or mpfr:DIGITS "
                            "(DIGITS in [10, 10000]), got 'quad'")
    with pytest.raises(ValueError, match="distribution must be one of laplace"):
        dpref.sample("cauchy", 1, seed=0)
    with pytest.raises(ValueError, match='unknown key "scale" for laplace'):
        dpref.sample("laplace", 1, params={"scale": 1}, seed=0)


def test_other_exceptions_are_runtime_errors(cli):
    """std::overflow_error (the stream's 2^64 positions exhausted) -> RuntimeError."""
    top = 2 ** 64 - 3
    rc, msg = cli.error("sample", "-d", "gaussian", "--position", top, "-n", "5")
    assert rc == 70
    with pytest.raises(RuntimeError) as e:
        dpref.sample("gaussian", 5, seed=0, position=top)
    assert not isinstance(e.value, ValueError)
    assert str(e.value) == msg == "dpref::philox_stream: position exhausted (2^64 draws)"
    with pytest.raises(RuntimeError):
        dpref.sample("laplace", 5, seed=0, position=top)  # the batch kernel refuses it too


def test_python_callback_exceptions_pass_through():
    def broken(side, n, seed):
        raise KeyError("from the mechanism")

    with pytest.raises(KeyError, match="from the mechanism"):
        dpref.audit(broken, epsilon=1, samples=4096, grid=(-1, 1, 10))

    with pytest.raises(ValueError, match="1-D array of 4096 numbers"):
        dpref.audit(lambda side, n, seed: [0.0], epsilon=1, samples=4096, grid=(-1, 1, 10))
