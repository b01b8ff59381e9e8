"""PY.ACCOUNT: dpref.account reads ledgers with the library's strict reader and returns the
document of `dpref account --json`, bit for bit, at every precision."""
import json

import pytest

import dpref


@pytest.mark.parametrize("precision", ["double", "long-double", "mp50", "mpfr:40"])
def test_ledger_file_equals_cli(cli, source_dir, precision):
    path = source_dir / "examples" / "account_events.json"
    want = cli.json("account", path, "--json", "--precision", precision)
    assert dpref.account(path, precision=precision) == want
    assert dpref.account(str(path), precision=precision) == want


def test_event_list_and_options_equal_cli_flags(cli, source_dir, tmp_path):
    ledger = json.loads((source_dir / "examples" / "account_events.json").read_text())
    events = ledger["events"]
    f = tmp_path / "l.json"
    f.write_text(json.dumps({"accounting": {}, "events": events}))
    want = cli.json("account", f, "--json", "--delta", "1e-6", "--max-order", "128",
                    "--conversion", "mironov")
    got = dpref.account(events, delta=1e-6, max_order=128, conversion="mironov")
    assert got == want
    assert got["ledger"]["accounting"]["delta"] == 1e-6
    # a whole ledger dict is accepted too
    assert dpref.account(ledger) == cli.json("account", source_dir / "examples" /
                                             "account_events.json", "--json")


def test_guarantee_is_certified_and_precision_strings():
    ev = [{"mechanism": "gaussian", "sensitivity": 1, "sigma": "1.1", "count": 10000,
           "sampling": {"scheme": "poisson", "rate": 0.01, "neighbouring": "add_remove"}}]
    d = dpref.account(ev, delta=1e-5)
    m = dpref.account(ev, delta=1e-5, precision="mp50")
    assert isinstance(d["guarantee"]["epsilon"], float)
    assert isinstance(m["guarantee"]["epsilon"], str)
    # the benchmark value of spec/accounting.md (Balle 2020 conversion): 5.65430800014948...
    assert abs(d["guarantee"]["epsilon"] - 5.654308000149489) < 1e-9
    assert m["guarantee"]["epsilon"].startswith("5.6543080001494")


def test_budget_exceeded_is_raised_before_anything():
    ev = [{"mechanism": "laplace", "sensitivity": 1, "scale": 2, "count": 4}]
    assert dpref.account(ev, budget=(2, 0))["guarantee"]["epsilon"] == 2.0
    with pytest.raises(dpref.BudgetExceeded) as e:
        dpref.account(ev, budget=(1.5, 0))
    assert isinstance(e.value, RuntimeError)
    assert str(e.value) == (
        "dpref.account: the certified guarantee (epsilon = 2, delta = 0) exceeds the requested "
        "budget (epsilon = 1.5, delta = 0); nothing was released (set allow_over_budget to "
        "reproduce an over-budget paper setting)")
