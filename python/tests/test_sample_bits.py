"""PY.SAMPLE.BITS: dpref.sample gives exactly the values of `dpref sample` (same distributions,
parameters, stream addresses and precisions), bit for bit."""
import mpmath
import numpy as np
import pytest

import dpref

# (distribution, params for Python, CLI flags)
CASES = [
    ("laplace", {"b": "2.5"}, ["-p", "2.5"]),
    ("gaussian", {"sigma": "0.5"}, ["-p", "0.5"]),
    ("exponential", {"rate": "3"}, ["-p", "3"]),
    ("uniform", None, []),
    ("bernoulli", {"p": "0.3"}, ["-p", "0.3"]),
    ("gamma", {"shape": "2.5", "theta": "1.5"}, ["-p", "1.5", "--shape", "2.5"]),
    ("vector-laplace", {"dim": 3, "b": "1.5"}, ["-p", "1.5", "--dim", "3"]),
    ("direction", {"dim": 4}, ["--dim", "4"]),
    ("discrete-laplace", {"t": "7/3"}, ["-p", "7/3"]),
    ("discrete-gaussian", {"sigma2": "25/4"}, ["-p", "25/4"]),
]
PRECISIONS = ["double", "long-double", "mp50", "mpfr:30"]
ADDRESSES = [(0, 0, 0, 0), (2 ** 64 - 1, 5, 7, 2 ** 40 + 3)]
N = 24


def cli_samples(cli, dist, flags, precision, address):
    seed, stream, substream, position = address
    return cli.json("sample", "-d", dist, *flags, "--precision", precision, "--seed", seed,
                    "--stream", stream, "--substream", substream, "--position", position,
                    "-n", N)["samples"]


def same_real(precision, text, value):
    if precision == "double":
        return np.float64(float(text)).view(np.uint64) == np.float64(value).view(np.uint64)
    if precision == "long-double":
        return np.longdouble(text) == value
    bits = dpref.precision_bits(precision)
    with mpmath.workprec(bits):
        return mpmath.mpf(text) == value


@pytest.mark.parametrize("address", ADDRESSES, ids=["origin", "far"])
@pytest.mark.parametrize("precision", PRECISIONS)
@pytest.mark.parametrize("dist,params,flags", CASES, ids=[c[0] for c in CASES])
def test_python_equals_cli(cli, dist, params, flags, precision, address):
    if dist.startswith("discrete") and precision != "double":
        pytest.skip("the secure integer samplers have no precision")
    seed, stream, substream, position = address
    want = cli_samples(cli, dist, flags, precision, address)
    got = dpref.sample(dist, N, params=params, seed=seed, stream=stream, substream=substream,
                       position=position, precision=precision)
    assert len(got) == N == len(want)
    if dist == "bernoulli":
        assert list(map(bool, got)) == want
        return
    if dist.startswith("discrete"):
        assert got.dtype == np.int64 and got.tolist() == want
        return
    if dist in ("vector-laplace", "direction"):
        for row_g, row_w in zip(got, want):
            assert len(row_g) == len(row_w)
            assert all(same_real(precision, w, g) for g, w in zip(row_g, row_w))
    else:
        assert all(same_real(precision, w, g) for g, w in zip(got, want)), (got[:3], want[:3])
    if precision in ("mp50", "mpfr:30"):
        text = dpref.sample(dist, N, params=params, seed=seed, stream=stream,
                            substream=substream, position=position, precision=precision,
                            output="text")
        assert text == want  # the same decimal strings as the CLI
        assert all(isinstance(x, mpmath.mpf) for x in np.ravel(got))
    elif precision == "double":
        assert got.dtype == np.float64
    else:
        assert got.dtype == np.longdouble


def test_scalar_param_is_the_cli_param(cli):
    want = cli_samples(cli, "gamma", ["-p", "1.5"], "double", (3, 0, 0, 0))
    got = dpref.sample("gamma", N, params=1.5, seed=3)
    assert [float(w) for w in want] == got.tolist()


def test_python_floats_are_their_decimal_text(cli):
    """params=0.1 means the decimal 0.1 at every precision, as --param 0.1 does."""
    want = cli_samples(cli, "laplace", ["-p", "0.1"], "mp50", (1, 0, 0, 0))
    assert dpref.sample("laplace", N, params={"b": 0.1}, seed=1, precision="mp50",
                        output="text") == want


def test_mpf_values_carry_the_precision():
    x = dpref.sample("gaussian", 4, seed=9, precision="mpfr:60")
    bits = dpref.precision_bits("mpfr:60")
    assert bits >= 199
    text = dpref.sample("gaussian", 4, seed=9, precision="mpfr:60", output="text")
    with mpmath.workprec(bits):
        assert all(mpmath.mpf(t) == v for t, v in zip(text, x))
    # more than double precision: the value is not a double widened
    assert any(mpmath.mpf(float(v)) != v for v in x)


def test_philox_words_are_the_stream(cli):
    w = dpref.philox_words(8, seed=5, stream=1, substream=2, position=3, lane=0)
    assert w.dtype == np.uint64
    # uniform01<double> of lane 0 is (K + 1/2) 2^-64 truncated to 53 bits
    u = dpref.sample("uniform", 8, seed=5, stream=1, substream=2, position=3)
    for k, x in zip(w.tolist(), u.tolist()):
        exact = mpmath.mpf(2 * k + 1) / mpmath.mpf(2) ** 65
        assert abs(exact - x) < mpmath.mpf(2) ** -52 * exact
    # Random123's known-answer vector of Philox4x64-10 (counter 0, key 0)
    kat = dpref.philox_words(4, seed=0)
    assert [f"{int(x):016x}" for x in kat] == [
        "16554d9eca36314c", "db20fe9d672d0fdc", "d7e772cee186176b", "7e68b68aec7ba23b"]
