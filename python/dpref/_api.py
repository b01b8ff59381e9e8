"""Samplers, accountant, auditor and paper runs of the dpref package (spec/python.md)."""
from __future__ import annotations

import json
import os
from typing import Any, Callable, Mapping, Optional, Sequence, Union

from . import _core
from ._numbers import jsonable, mpf_from_parts, rational_text, real_text

__all__ = ["sample", "philox_words", "distributions", "precision_bits", "account", "audit",
           "audit_mechanisms", "run", "papers", "BudgetExceeded"]

BudgetExceeded = _core.BudgetExceeded

_DISTRIBUTIONS = {name: (kind, params) for name, kind, params in _core.distributions()}
# the parameter `dpref sample --param` sets (params=<number> sets it too)
_CLI_PARAM = {"laplace": "b", "gaussian": "sigma", "exponential": "rate", "bernoulli": "p",
              "gamma": "theta", "vector-laplace": "b", "direction": "dim",
              "discrete-laplace": "t", "discrete-gaussian": "sigma2"}


def distributions() -> dict:
    """The distributions of :func:`sample`: ``{name: (kind, [(parameter, default), ...])}``.

    kind is ``"real"``, ``"boolean"``, ``"vector"`` or ``"integer"``; the parameters are those
    of ``dpref sample`` (``--param``, ``--shape``, ``--dim``) under the names of the C++ sampler
    arguments, with the same defaults.
    """
    return {k: (kind, list(params)) for k, (kind, params) in _DISTRIBUTIONS.items()}


def precision_bits(precision: str = "double") -> int:
    """Significand bits of a precision: double 53, long-double 64, mp50 168, mpfr:DIGITS ..."""
    return _core.bits(precision)


def _params(dist: str, params) -> dict:
    if dist not in _DISTRIBUTIONS:
        # the C++ message ("dpref::sample: distribution must be one of ...")
        _core.sample(dist, 0, {}, 0, 0, 0, 0, "double")
    kind, names = _DISTRIBUTIONS[dist]
    if params is None:
        return {}
    if not isinstance(params, Mapping):
        if dist not in _CLI_PARAM:
            raise ValueError(f"dpref.sample: {dist} has no parameter, got {params!r}")
        params = {_CLI_PARAM[dist]: params}
    out = {}
    for k, v in params.items():
        if kind == "integer":
            out[str(k)] = rational_text(v, f"params[{k!r}]")
        elif k == "dim":
            out[str(k)] = str(int(v))
        else:
            out[str(k)] = real_text(v, f"params[{k!r}]")
    return out


def sample(dist: str, n: int, *, params: Any = None, seed: int, stream: int = 0,
           substream: int = 0, position: int = 0, precision: str = "double",
           output: str = "mpf", kernel: str = "automatic", sampler: str = "reference",
           threads: int = 1):
    """Reference samples of one stream address, exactly those of ``dpref sample``; or, with
    ``sampler="ziggurat"``, the fast double samplers (spec/random.md RAND.ZIGGURAT).

    Parameters
    ----------
    dist : str
        ``laplace`` (params ``b``), ``gaussian`` (``sigma``), ``exponential`` (``rate``),
        ``uniform`` (none), ``bernoulli`` (``p``), ``gamma`` (``shape``, ``theta``),
        ``vector-laplace`` (``dim``, ``b``), ``direction`` (``dim``), ``discrete-laplace``
        (scale ``t`` = "p/q") or ``discrete-gaussian`` (variance ``sigma2`` = "p/q"); defaults
        as ``dpref sample`` (1).
    n : int
        Number of draws (positions position .. position + n - 1).
    params : dict or number, optional
        ``{"b": 2.5}``, or the single parameter itself (``params=2.5``). Reals may be ``str``
        (decimal text, converted once at the target precision), ``int``, ``float`` (its repr:
        ``0.1`` means the decimal 0.1, as on the command line) or ``mpmath.mpf``.
    seed, stream, substream, position : int
        The stream address (spec/random.md RAND.STREAM.ADDRESS); 0 <= each < 2**64.
    precision : str
        ``double`` (float64 array), ``long-double`` (numpy.longdouble array), ``mp50`` or
        ``mpfr:DIGITS`` (20 <= DIGITS <= 10000).
    output : str
        For ``mp50`` / ``mpfr``: ``"mpf"`` (default) -> numpy object array of ``mpmath.mpf``
        holding exactly the C++ values (set ``mpmath.mp.prec >= precision_bits(precision)`` to
        compute with them unrounded); ``"text"`` -> list of the decimal strings ``dpref sample``
        prints. Ignored for double and long double.
    kernel : str
        Double Laplace / exponential only: ``automatic`` (AVX-512 batch kernel when available),
        ``portable`` or ``avx512``; every kernel gives the same bits (RAND.BATCH). With
        ``sampler="ziggurat"`` also ``avx2`` (default ``automatic``: AVX-512, else AVX2).
    sampler : str
        ``"reference"`` (default: correctly rounded inversion, RAND.*.INV) or ``"ziggurat"``:
        double-only ziggurat samplers (gaussian, exponential, laplace) and the open-interval
        uniform, one Philox word per draw at the same positions, the same distributions but
        other values than the reference samplers (RAND.ZIGGURAT); ``precision`` must be
        ``double``.
    threads : int
        ``sampler="ziggurat"`` only: threads filling the array (0: all cores); the values do
        not depend on it.

    Returns
    -------
    numpy.ndarray
        float64 (double), longdouble, bool (bernoulli), int64 (secure discrete samplers, exact
        integers at every precision), shape (n,) or (n, dim) for vector distributions; object
        arrays of mpmath.mpf (or lists of str) for the multiprecision precisions.

    Raises
    ------
    ValueError
        Invalid distribution, parameter or precision, with the C++ message (e.g.
        ``dpref::laplace: b must be finite and > 0, got -1``).
    """
    import numpy as np

    n = int(n)
    if n < 0:
        raise ValueError(f"dpref.sample: n must be >= 0, got {n}")
    p = _params(dist, params)
    if sampler == "ziggurat":
        if precision != "double":
            raise ValueError(f"dpref.sample: sampler 'ziggurat' is double only, got precision "
                             f"{precision!r}")
        if int(threads) < 0:
            raise ValueError(f"dpref.sample: threads must be >= 0, got {threads}")
        value = float(next(iter(p.values()))) if p else 1.0
        return _core.sample_ziggurat(dist, n, value, int(seed), int(stream), int(substream),
                                     int(position), kernel, int(threads))
    if sampler != "reference":
        raise ValueError(f"dpref.sample: sampler must be reference or ziggurat, got {sampler!r}")
    r = _core.sample(dist, n, p, int(seed), int(stream), int(substream), int(position),
                     precision, kernel)
    if isinstance(r, np.ndarray):
        return r
    if output not in ("mpf", "text"):
        raise ValueError(f"dpref.sample: output must be mpf or text, got {output!r}")
    if output == "text":
        if r and isinstance(r[0], list):
            return [[x[0] for x in row] for row in r]
        return [x[0] for x in r]
    bits = _core.bits(precision)
    if r and isinstance(r[0], list):
        out = np.empty((len(r), len(r[0])), dtype=object)
        for i, row in enumerate(r):
            for j, x in enumerate(row):
                out[i, j] = mpf_from_parts(x, bits)
        return out
    out = np.empty(len(r), dtype=object)
    for i, x in enumerate(r):
        out[i] = mpf_from_parts(x, bits)
    return out


def philox_words(n: int, *, seed: int, stream: int = 0, substream: int = 0, position: int = 0,
                 lane: int = 0):
    """Raw 64-bit Philox-4x64-10 words of a stream address (spec/random.md RAND.REIMPLEMENT).

    Word i is lane ``lane`` of position ``position + i``: key = (seed, stream), counter =
    (position // 4, lane, substream, 0), word (position mod 4) of the block. Returns a uint64
    array.
    """
    return _core.philox_words(int(seed), int(stream), int(substream), int(position), int(lane),
                              int(n))


def _ledger_text(events) -> tuple[str, bool]:
    if isinstance(events, (str, os.PathLike)):
        return os.fspath(events), True
    if isinstance(events, Mapping):
        doc = dict(events)
    else:
        doc = {"accounting": {}, "events": list(events)}
    return json.dumps(doc, default=jsonable), False


def account(events, *, delta=None, method: Optional[str] = None, max_order: Optional[int] = None,
            conversion: Optional[str] = None, precision: str = "double",
            budget=None) -> dict:
    """Certified (epsilon, delta) of a ledger: the document of ``dpref account --json``.

    Parameters
    ----------
    events : list of dict, dict or path
        A list of event dicts (the ledger schema, spec/schema/ledger.schema.json, e.g.
        ``{"mechanism": "gaussian", "sensitivity": 1, "sigma": 1.1, "count": 1000,
        "sampling": {"scheme": "poisson", "rate": 0.01, "neighbouring": "add_remove"}}``), a
        whole ledger ``{"accounting": {...}, "events": [...]}``, or the path of a ledger JSON
        file (read by the same strict reader as the CLI: identical error messages).
    delta, method, max_order, conversion :
        Override the ledger's ``accounting`` options like the CLI flags ``--delta`` etc.
        (delta: the δ at which the Rényi part is converted; required if there is one).
    precision : str
        ``double``, ``long-double``, ``mp50`` or ``mpfr:DIGITS``; reals of the result are JSON
        numbers for double and decimal strings carrying every digit otherwise.
    budget : (epsilon, delta), optional
        Raise :class:`BudgetExceeded` (nothing else happens) if the certified guarantee
        exceeds it (``plan_privacy``, ARCH.BUDGET).

    Returns
    -------
    dict
        ``{"schema": "dpref.account/1", "precision", "ledger", "guarantee": {"epsilon",
        "delta", "method"}, "events": [... with "alone"], "rdp": {...}?}``.
    """
    text, is_path = _ledger_text(events)
    opts = {}
    if delta is not None:
        opts["delta"] = real_text(delta, "delta")
    if method is not None:
        opts["method"] = str(method)
    if max_order is not None:
        opts["max_order"] = str(int(max_order))
    if conversion is not None:
        opts["conversion"] = str(conversion)
    b = None
    if budget is not None:
        if isinstance(budget, Mapping):
            b = (real_text(budget["epsilon"], "budget epsilon"),
                 real_text(budget.get("delta", 0), "budget delta"))
        else:
            eps, dlt = budget
            b = (real_text(eps, "budget epsilon"), real_text(dlt, "budget delta"))
    return json.loads(_core.account(text, "dpref.account", is_path, precision, opts, b))


def audit_mechanisms() -> list:
    """Names of the built-in mechanisms of :func:`audit` (those of ``dpref audit``)."""
    return list(_core.audit_mechanisms())


def audit(mechanism: Union[str, Callable], *, epsilon: float = 1.0, delta: Optional[float] = None,
          samples: int = 2 ** 20, seed: int = 20261121, alpha: float = 1e-6, threads: int = 0,
          dim: int = 2, candidates: int = 10, pairs: Optional[Sequence[str]] = None,
          test_samples: Optional[int] = None, grid: Optional[tuple] = None,
          lowbits: bool = False, chunk: int = 2 ** 14) -> dict:
    """Statistical DP audit (spec/audit.md): a Clopper–Pearson lower bound on epsilon.

    ``mechanism`` is either the name of a built-in mechanism (``audit_mechanisms()``: the same
    audit and report as ``dpref audit NAME --json``; ``delta`` defaults to 1e-3, used by
    ``gaussian``), or a Python callable producing outputs of the mechanism in batches::

        f(side, n, seed) -> array of n floats          # one neighbour pair (D, D')
        f(pair, side, n, seed) -> array of n floats    # when pairs=[name, ...] is given

    where ``side`` is 0 for M(D) and 1 for M(D'), ``n`` the batch size and ``seed`` a 64-bit
    seed chosen by dpref for that batch (seed your RNG with it, e.g.
    ``numpy.random.default_rng(seed)``, so batches are independent and the audit reproducible).
    dpref draws ``samples`` outputs per side to choose the event (threshold events on the grid
    ``grid = (lo, hi, bins)``, by default the 0.1%–99.9% range of a pilot batch with 100 bins,
    plus low-order-bit events if ``lowbits``) and ``test_samples`` (default ``samples``)
    independent outputs to bound it; the false-alarm probability of a violation verdict is at
    most ``alpha`` if the mechanism is (epsilon, delta)-DP (``delta`` defaults to 0). The
    callable runs in this thread with the GIL held.

    Returns the report dict (``epsilon_lower_bound``, ``verdict``: ``"violation"`` or ``"no
    violation"``, ``pairs`` with the chosen event and counts, ``seconds``) plus ``"violation"``.
    """
    if isinstance(mechanism, str):
        r = json.loads(_core.audit_builtin(mechanism, float(epsilon),
                                           1e-3 if delta is None else float(delta), int(samples),
                                           int(seed), float(alpha), int(threads), int(dim),
                                           int(candidates)))
        r["violation"] = r["verdict"] == "violation"
        return r
    if not callable(mechanism):
        raise TypeError("dpref.audit: mechanism must be a built-in name or a callable")
    import numpy as np

    names = list(pairs) if pairs is not None else ["D, D'"]
    if pairs is None:
        f = lambda p, side, n, s: mechanism(side, n, s)  # noqa: E731
    else:
        f = mechanism
    if grid is None:
        pilot = []
        for p in range(len(names)):
            for side in (0, 1):
                y = np.asarray(f(p, side, 1 << 14, _core.chunk_seed(int(seed), 2, p, side, 0)),
                               dtype=float)
                pilot.append(y[np.isfinite(y)])
        allv = np.concatenate(pilot)
        lo, hi = float(np.quantile(allv, 0.001)), float(np.quantile(allv, 0.999))
        if not hi > lo:
            lo, hi = lo - 1.0, lo + 1.0
        grid = (lo, hi, 100)
    lo, hi, bins = grid
    r = json.loads(_core.audit_callable(f, names, float(epsilon), 0.0 if delta is None else float(delta),
                                        int(samples), int(test_samples or samples), int(seed),
                                        float(alpha), int(chunk), float(lo), float(hi), int(bins),
                                        bool(lowbits)))
    r["grid"] = [float(lo), float(hi), int(bins)]
    r["violation"] = r["verdict"] == "violation"
    return r


def papers() -> list:
    """Papers whose ``run`` is available (spec/python.md PY.RUN): the table of
    src/papers/papers.hpp, filled as the papers' ``run_json`` entry points land."""
    return list(_core.papers())


def run(paper: str, config: Optional[Mapping] = None, *, precision: str = "double") -> dict:
    """Runs a paper's algorithm: its ``run_json`` on ``config`` (the ``--params`` document of
    ``dpref <paper> run``) at ``precision``; returns the result document (dpref.result/1).

    Raises ValueError naming the available papers if ``paper`` is not one of :func:`papers`.
    """
    text = json.dumps({} if config is None else config, default=jsonable)
    return json.loads(_core.run_json(paper, text, precision))
