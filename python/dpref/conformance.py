"""Conformance kit (spec/conformance.md): check any implementation against the corpus that
``dpref vectors --out DIR`` writes.

- :func:`check` — ``check(fn, "vectors/accounting")`` calls ``fn(op, input) -> output dict``
  for every vector of a corpus folder, area folder or family file and returns a
  :class:`Report` (pass/fail and the worst error of every vector; the comparison is the C++
  checker of ``dpref check-vectors``, so both agree);
- :func:`reference` — dpref's own answer through this Python package (the reference adapter);
- :func:`serve` — speaks the protocol of ``dpref check-vectors --cmd``: one JSON request on
  stdin, one JSON response on stdout. ``python3 -m dpref.adapter`` serves :func:`reference`.

Outputs: reals as JSON numbers (double) or decimal strings (any precision; mpmath.mpf values
are written as their exact decimal expansion), booleans, integers, "0x..." hex words.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, List, Mapping, Optional

from . import _core
from ._numbers import jsonable

__all__ = ["check", "reference", "serve", "Report", "family_files", "PROTOCOL"]

PROTOCOL = "dpref.conformance/1"


def family_files(path) -> List[str]:
    """Family files of a corpus folder (every ``*.json`` but MANIFEST.json, sorted), or
    ``[path]`` for a file; ``"vectors/accounting"`` may name the folder or
    ``vectors/accounting.json``."""
    path = os.fspath(path)
    if os.path.isfile(path):
        return [path]
    if not os.path.isdir(path) and os.path.isfile(path + ".json"):
        return [path + ".json"]
    if not os.path.isdir(path):
        raise ValueError(f"dpref.conformance: no corpus folder or family file at '{path}'")
    out = []
    for root, _, files in os.walk(path):
        for f in files:
            if f.endswith(".json") and f != "MANIFEST.json":
                out.append(os.path.join(root, f))
    if not out:
        raise ValueError(f"dpref.conformance: no family files (*.json) under '{path}'")
    return sorted(out)


def _answer(fn: Callable, vector: Mapping) -> dict:
    try:
        return {"output": fn(vector["op"], vector["input"])}
    except Exception as e:  # the implementation refused the input: an {"error"} answer
        return {"error": f"{type(e).__name__}: {e}"}


@dataclass
class Report:
    """Result of :func:`check`: one verdict per vector (``id``, ``pass``, ``problem``,
    ``worst``: {key, error, allowed, unit})."""

    results: List[dict] = field(default_factory=list)

    @property
    def vectors(self) -> int:
        return len(self.results)

    @property
    def failures(self) -> List[dict]:
        return [r for r in self.results if not r["pass"]]

    @property
    def passed(self) -> bool:
        return not self.failures

    def worst(self) -> Optional[dict]:
        """The verdict whose worst error is largest relative to its allowance."""
        best, ratio = None, -1.0
        for r in self.results:
            w = r.get("worst")
            if not w:
                continue
            q = float("inf") if w["ratio"] == "inf" else w["ratio"]
            if q > ratio:
                best, ratio = r, q
        return best

    def __str__(self) -> str:
        lines = [f"{self.vectors - len(self.failures)} of {self.vectors} vectors passed"]
        for r in self.failures[:20]:
            lines.append(f"  FAIL {r['id']}: {r.get('problem', '')}")
        w = self.worst()
        if w:
            lines.append(f"  worst: {w['id']} {w['worst']['key']} error {w['worst']['error']} "
                         f"{w['worst']['unit']} (allowed {w['worst']['allowed']})")
        return "\n".join(lines)


def check(fn: Callable[[str, dict], Any], path, *, ids: Optional[Iterable[str]] = None) -> Report:
    """Checks ``fn(op, input) -> output dict`` against the vectors under ``path``.

    An exception raised by ``fn`` counts as the answer ``{"error": ...}`` (required for the
    vectors that expect invalid input to be refused, a failure otherwise). ``ids`` restricts
    the check to those vector ids. Returns a :class:`Report`.
    """
    want = set(ids) if ids is not None else None
    report = Report()
    for f in family_files(path):
        with open(f, encoding="utf-8") as fh:
            doc = json.load(fh)
        for v in doc["vectors"]:
            if want is not None and v["id"] not in want:
                continue
            answer = _answer(fn, v)
            verdict = _core.conformance_check(json.dumps(v, default=jsonable),
                                              json.dumps(answer, default=jsonable))
            report.results.append(json.loads(verdict))
    return report


def _text(x):
    """JSON value of a result: float stays a number, mpf / longdouble become exact text."""
    return json.loads(json.dumps(x, default=jsonable))


def reference(op: str, input: Mapping) -> dict:
    """dpref's answer to one protocol request, computed through this Python package (the
    reference adapter of spec/conformance.md; ``dpref check-vectors`` without ``--cmd``
    computes the same answers in C++)."""
    import dpref
    import numpy as np

    prec = input.get("precision", "double")
    if op == "philox":
        w = dpref.philox_words(input["count"], seed=input["seed"], stream=input["stream"],
                               substream=input["substream"], position=input["position"],
                               lane=input["lane"])
        return {"words": [f"0x{int(x):016x}" for x in w]}
    if op == "sample":
        a = input["address"]
        r = dpref.sample(input["distribution"], input["count"], params=input.get("params"),
                         seed=a["seed"], stream=a["stream"], substream=a["substream"],
                         position=a["position"], precision=prec, output="text")
        if isinstance(r, np.ndarray):
            r = r.tolist() if r.dtype != np.longdouble else _text(list(r))
        return {"samples": r}
    if op == "account":
        g = dpref.account(input["ledger"], precision=prec)["guarantee"]
        return {"epsilon": g["epsilon"], "delta": g["delta"]}
    if op == "calibrate":
        return {"value": _text(dpref.calibrate.calibrate(input["function"], prec,
                                                         **input["args"]))}
    if op == "project_capped_simplex":
        x, nu = dpref.geometry.project_capped_simplex(input["x0"], input["a"], input["b"],
                                                      precision=prec)
        return {"x": _text(list(x)), "nu": _text(nu)}
    if op == "run":
        return dpref.run(input["paper"], input.get("config"), precision=prec)
    raise ValueError(f"dpref.conformance.reference: unknown op '{op}'")


def serve(fn: Callable[[str, dict], Any] = reference, stdin=None, stdout=None) -> None:
    """Answers one protocol request: reads ``{"protocol", "vectors": [{"id", "op", "input"}]}``
    from stdin and writes ``{"protocol", "results": [{"id", "output"} | {"id", "error"}]}``."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    req = json.load(stdin)
    results = []
    for v in req["vectors"]:
        a = _answer(fn, v)
        a["id"] = v["id"]
        results.append(a)
    json.dump({"protocol": PROTOCOL, "results": results}, stdout, default=jsonable)
    stdout.write("\n")

