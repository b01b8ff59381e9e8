"""Per-paper API (spec/python.md PY.PAPERS): ``dpref.<paper>.run(config, *, precision, **params)``.

One generic implementation serves every paper: ``dpref.ev``, ``dpref.linesearch``, ``dpref.dda``,
``dpref.pwa`` and ``dpref.accel`` are :class:`PaperModule` instances made by the package for each
name of :data:`KNOWN` and of :func:`dpref.papers` (the runner table of src/papers/papers.hpp), so
a paper registered in C++ gets its Python module with no Python change. A known paper whose
runner is not registered yet keeps its module, whose ``run`` raises ``ValueError`` naming the
registered papers (the message of ``dpref.run``).

The result of a run is the dpref.result/1 document of ``dpref <paper> run --params`` (the same
``run_json<Real>``, compiled once in dpref_papers) wrapped in a :class:`Result`.
"""
from __future__ import annotations

import copy
import json
import types
from typing import Any, Mapping, Optional

from . import _core
from ._numbers import jsonable

__all__ = ["KNOWN", "Ledger", "PaperModule", "Result"]

#: The papers of the repository, in the order of the runner table (DPREF_PAPERS in
#: cmake/papers.cmake, compiled into the module).
KNOWN = tuple(_core.papers())


def _is_mp(precision: str) -> bool:
    return precision == "mp50" or precision == "mpfr"


def _real(x, bits: Optional[int]):
    """One JSON real of the result: float at double, mpmath.mpf at mp50 / mpfr."""
    if bits is None:
        return float(x)
    import mpmath

    # the decimal text carries every digit needed to round-trip: read at the run's precision it
    # is the C++ value itself (spec/python.md "Numbers")
    with mpmath.workprec(bits):
        return mpmath.mpf(str(x))


def _is_numeric_list(v) -> bool:
    if not isinstance(v, list) or not v:
        return False
    flat = v
    if all(isinstance(r, list) for r in v):
        if len({len(r) for r in v}) != 1 or not v[0]:
            return False
        flat = [x for r in v for x in r]
    for x in flat:
        if isinstance(x, bool) or x is None:
            return False
        if isinstance(x, (int, float)):
            continue
        if isinstance(x, str):
            try:
                float(x)
            except ValueError:
                return False
            continue
        return False
    return True


def _arrays(v, bits: Optional[int], dtype=None):
    """Converts numeric lists (and rectangular lists of lists) of a JSON value to numpy arrays:
    float64 at double (numpy.longdouble at long-double), object arrays of mpmath.mpf at mp50 /
    mpfr; other values unchanged."""
    import numpy as np

    if isinstance(v, dict):
        return {k: _arrays(x, bits, dtype) for k, x in v.items()}
    if _is_numeric_list(v):
        if bits is None:
            if dtype is not None:  # long double: read every digit of the text
                return np.asarray(np.asarray(v, dtype=str), dtype=dtype)
            return np.asarray(v, dtype=np.float64)
        nested = isinstance(v[0], list)
        shape = (len(v), len(v[0])) if nested else (len(v),)
        out = np.empty(shape, dtype=object)
        for i, x in enumerate(v):
            if nested:
                for j, y in enumerate(x):
                    out[i, j] = _real(y, bits)
            else:
                out[i] = _real(x, bits)
        return out
    if isinstance(v, list):
        return [_arrays(x, bits, dtype) for x in v]
    return v


class Ledger:
    """The privacy ledger of a run (``result["privacy"]["ledger"]``, the input of
    ``dpref account``)."""

    def __init__(self, doc: Mapping[str, Any], precision: str):
        self._doc = doc
        self._precision = precision

    def to_json(self) -> dict:
        """The ledger exactly as the CLI's ``privacy.ledger`` JSON (a deep copy)."""
        return copy.deepcopy(self._doc)

    @property
    def events(self) -> list:
        """The ledger's privacy events (dicts of spec/schema/ledger.schema.json)."""
        return copy.deepcopy(self._doc.get("events", []))

    def account(self, *, method: Optional[str] = None, precision: Optional[str] = None,
                **options) -> dict:
        """Re-accounts the ledger with :func:`dpref.account` (at the run's precision unless
        ``precision`` is given); with the ledger's own options the guarantee equals the run's
        ``privacy.guarantee`` bit for bit (ARCH.BUDGET: the run reports what ``dpref account``
        certifies). Other options (``delta``, ``max_order``, ``conversion``) as dpref.account."""
        from ._api import account

        return account(self.to_json(), method=method,
                       precision=precision or self._precision, **options)

    def __repr__(self) -> str:
        return f"Ledger({len(self._doc.get('events', []))} events)"


class Result:
    """The result of a paper's run (dpref.result/1, spec/architecture.md ARCH.RESULT).

    Attributes: ``paper``, ``algorithm``, ``precision``, ``status`` (the shared status string),
    ``message``, ``iterations``, ``config`` (the complete configuration after defaults: feeding
    it back reproduces the run), ``privacy`` (dict: ``private``, ``requested``, ``guarantee``,
    ``budget_met``, ``noise``: "idealised" or "secure", ``released_doubles``: what the guarantee covers), ``ledger`` (:class:`Ledger` or None for non-private runs), and
    ``iterates`` / ``trace`` / ``non_private`` (None for a private run that did not ask for
    ``diagnostics``: a private result carries nothing its ledger does not cover): the JSON values with every numeric list (and
    rectangular list of lists) as a numpy array — float64 at double, numpy.longdouble at
    long-double, object arrays of ``mpmath.mpf`` equal to the C++ values at mp50 / mpfr:DIGITS. ``to_json()`` returns the
    document itself.
    """

    def __init__(self, doc: Mapping[str, Any], precision: str):
        self._doc = doc
        p = doc.get("precision", "double")
        self._bits = _core.bits(precision) if _is_mp(p) else None
        import numpy as np

        wide = None if self._bits is not None or _core.bits(precision) == 53 else np.longdouble
        self.paper: str = doc["paper"]
        self.algorithm: str = doc["algorithm"]
        self.precision: str = p
        self.status: str = doc["status"]
        self.message: str = doc["message"]
        self.iterations: int = doc["iterations"]
        self.config: dict = copy.deepcopy(doc["config"])
        self.privacy: dict = {k: copy.deepcopy(v) for k, v in doc["privacy"].items()
                              if k != "ledger"}
        led = doc["privacy"].get("ledger")
        self.ledger: Optional[Ledger] = None if led is None else Ledger(led, precision)
        self.iterates = _arrays(doc["iterates"], self._bits, wide)
        self.trace = _arrays(doc["trace"], self._bits, wide)
        # PRIV.RELEASE: absent from a private run unless diagnostics were asked for
        np_doc = doc.get("non_private")
        self.non_private = None if np_doc is None else _arrays(np_doc, self._bits, wide)

    def to_json(self) -> dict:
        """The full dpref.result/1 document, equal to ``dpref <paper> run --params`` output."""
        return copy.deepcopy(self._doc)

    def __repr__(self) -> str:
        return (f"Result(paper={self.paper!r}, algorithm={self.algorithm!r}, "
                f"status={self.status!r}, iterations={self.iterations})")


class PaperModule(types.ModuleType):
    """``dpref.<paper>``: the paper's algorithms through its one ``run`` entry point."""

    def __init__(self, name: str):
        super().__init__(f"dpref.{name}")
        self.paper = name
        self.__doc__ = (
            f"dpref.{name}: the {name} paper's algorithms (spec/{name}.md), run through its "
            f"run_json<Real> (the same code as `dpref {name} run --params`).\n\n"
            f"    result = dpref.{name}.run(config, precision=\"double\", epsilon=0.5)\n")
        self.Result = Result
        self.Ledger = Ledger

    def available(self) -> bool:
        """Whether the paper's runner is registered (src/papers/papers.hpp)."""
        return self.paper in _core.papers()

    def run(self, config: Optional[Mapping[str, Any]] = None, *, precision: str = "double",
            **overrides) -> Result:
        """Runs the paper's algorithm on ``config`` (the ``--params`` document of
        ``dpref <paper> run``: ``{"problem", "params", "seed", "stream", ...}``; fields left out
        take their defaults) at ``precision`` (``double``, ``long-double``, ``mp50``,
        ``mpfr:DIGITS``).

        ``overrides`` set fields of ``config["params"]`` by name (``epsilon=0.5``,
        ``algorithm="blgd"``); the library's strict reader refuses unknown names with its own
        message (``ValueError``). ``config`` itself is not modified.

        Raises ``ValueError`` (invalid input; an unregistered paper names the registered ones),
        :class:`dpref.BudgetExceeded` (the requested budget cannot be met, before any release),
        ``RuntimeError`` otherwise.
        """
        cfg = copy.deepcopy(dict(config)) if config is not None else {}
        if overrides:
            params = dict(cfg.get("params") or {})
            params.update(overrides)
            cfg["params"] = params
        text = json.dumps(cfg, default=jsonable)
        doc = json.loads(_core.run_json(self.paper, text, precision))
        return Result(doc, precision)

    def __repr__(self) -> str:
        return f"<dpref paper module {self.paper!r}>"
