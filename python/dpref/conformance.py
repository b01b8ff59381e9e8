"""Conformance kit (spec/conformance.md): check any implementation against the corpus that
``dpref vectors --out DIR`` writes.

- :func:`check` — ``check(fn, "vectors/accounting")`` calls ``fn(op, input) -> output dict``
  for every vector of a corpus folder, area folder or family file and returns a
  :class:`Report` (pass/fail and the worst error of every vector; the comparison is the C++
  checker of ``dpref check-vectors``, so both agree);
- :func:`reference` — dpref's own answer through this Python package (the reference adapter);
- :func:`serve` — speaks the protocol of ``dpref check-vectors --cmd``: one JSON request on
  stdin, one JSON response on stdout. ``python3 -m dpref.adapter`` serves :func:`reference`.

An implementation answers only what it implements: raising :class:`Unsupported` (or
NotImplementedError) for an operation or event kind makes the vector "unsupported" (counted
apart). ``check(fn, path, precision="double")`` checks only the vectors meant for double.

Outputs: reals as JSON numbers (double) or decimal strings (any precision; mpmath.mpf values
are written as their exact decimal expansion), booleans, integers, "0x..." hex words.
"""
from __future__ import annotations

import json
import math
import os
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, List, Mapping, Optional

from . import _core
from ._numbers import jsonable

__all__ = ["check", "reference", "serve", "Report", "Unsupported", "family_files", "PROTOCOL"]

PROTOCOL = "dpref.conformance/1"


class Unsupported(Exception):
    """Raised by an implementation for an operation or event kind it does not implement: the
    vector is counted as unsupported (never as passed, never as failed)."""


def _resolve(path) -> str:
    path = os.fspath(path)
    if not os.path.exists(path) and os.path.isfile(path + ".json"):
        return path + ".json"
    return path


def _load(path, ids=None, precision=None) -> dict:
    """The corpus of ``path`` validated against its MANIFEST.json (the C++ loader of ``dpref
    check-vectors``; ValueError naming the file otherwise) and the selected vectors."""
    precisions = [precision] if isinstance(precision, str) else list(precision or [])
    return json.loads(_core.conformance_load(_resolve(path), list(ids or []), precisions))


def family_files(path) -> List[str]:
    """Family files selected by ``path`` (a corpus folder, a folder inside it or a family file;
    ``"vectors/accounting"`` may name the folder or ``vectors/accounting.json``), after the
    corpus is validated against its MANIFEST.json."""
    sel = _load(path)
    return [os.path.join(sel["root"], f["file"]) for f in sel["families"]]


def _finite(x):
    """The JSON value with non-finite floats as the strings "inf", "-inf", "nan" (JSON has no
    such numbers; the checker fails the vector)."""
    if isinstance(x, float) and not math.isfinite(x):
        return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


def _jsonable(x):
    return _finite(json.loads(json.dumps(x, default=jsonable, allow_nan=True)))


def _answer(fn: Callable, vector: Mapping) -> dict:
    try:
        return {"output": _jsonable(fn(vector["op"], vector["input"]))}
    except (Unsupported, NotImplementedError) as e:
        return {"unsupported": f"{type(e).__name__}: {e}"}
    except Exception as e:  # the implementation refused the input: an {"error"} answer
        return {"error": f"{type(e).__name__}: {e}"}


def _worst_text(w: Optional[dict]) -> str:
    if not w or "worst" not in w:
        return ""
    k = w["worst"]
    if w.get("wrong_side"):
        return f"worst {w['id']} {k['key']}: on the wrong side of the exact value"
    if not k["unit"]:
        return f"worst {w['id']} {k['key']}: not equal (exact)"
    if k["error"] == "inf":
        return f"worst {w['id']} {k['key']}: non-finite"
    return f"worst {w['id']} {k['key']}: {k['error']:.3g} {k['unit']} of {k['allowed']:.3g} allowed"


@dataclass
class Report:
    """Result of :func:`check`: one verdict per selected vector (``id``, ``status`` — "pass",
    "fail" or "unsupported" —, ``problem``, ``wrong_side``, ``worst``: {key, error, allowed,
    unit, ratio}), per family in ``families``, and how many vectors the manifest lists."""

    results: List[dict] = field(default_factory=list)
    families: List[dict] = field(default_factory=list)
    manifest_vectors: int = 0

    @property
    def vectors(self) -> int:
        return len(self.results)

    @property
    def failures(self) -> List[dict]:
        return [r for r in self.results if r["status"] == "fail"]

    @property
    def unsupported(self) -> List[dict]:
        return [r for r in self.results if r["status"] == "unsupported"]

    @property
    def checked(self) -> int:
        return self.vectors - len(self.unsupported)

    @property
    def passed(self) -> bool:
        """Every selected vector was checked and passed (none failed, none unsupported)."""
        return bool(self.results) and not self.failures and not self.unsupported

    @property
    def complete(self) -> bool:
        """passed, and the selection was every vector of the manifest."""
        return self.passed and self.vectors == self.manifest_vectors

    def worst(self) -> Optional[dict]:
        """The checked verdict whose worst error is largest relative to its allowance."""
        best, ratio = None, -1.0
        for r in self.results:
            w = r.get("worst")
            if not w or r["status"] == "unsupported":
                continue
            q = float("inf") if w["ratio"] == "inf" else w["ratio"]
            if q > ratio:
                best, ratio = r, q
        return best

    def __str__(self) -> str:
        lines = []
        for f in self.families:
            side = f" ({f['wrong_side']} below/above exact)" if f["wrong_side"] else ""
            lines.append(f"{f['family']:<26} checked {f['checked']:>3}  passed {f['passed']:>3}  "
                         f"failed {f['failed']:>3}{side}  unsupported {f['unsupported']:>3}   "
                         f"{_worst_text(f['worst'])}")
        for r in self.failures[:20]:
            lines.append(f"  FAIL {r['id']}: {r.get('problem', '')}")
        n_fail = len(self.failures)
        lines.append(f"{self.checked} of the manifest's {self.manifest_vectors} vectors checked: "
                     f"{self.checked - n_fail} passed, {n_fail} failed; {len(self.unsupported)} "
                     f"unsupported; {self.manifest_vectors - self.vectors} not selected")
        lines.append(f"FAILED: {n_fail} of {self.checked} checked vectors failed" if n_fail else
                     f"PASSED: all {self.manifest_vectors} vectors of the manifest passed"
                     if self.complete else
                     f"no failure, not a full pass: {self.checked} of the manifest's "
                     f"{self.manifest_vectors} vectors passed")
        return "\n".join(lines)


def check(fn: Callable[[str, dict], Any], path, *, ids: Optional[Iterable[str]] = None,
          precision=None) -> Report:
    """Checks ``fn(op, input) -> output dict`` against the vectors under ``path``.

    The corpus is first validated against its MANIFEST.json (ValueError naming the file if a
    family is missing or extra, a count or digest differs, a family is empty, an id is missing
    or repeated, or a vector is malformed). An exception raised by ``fn`` counts as the answer
    ``{"error": ...}`` (required for the vectors that expect invalid input to be refused, a
    failure otherwise); :class:`Unsupported` or NotImplementedError as "unsupported". ``ids``
    restricts the check to those vector ids, ``precision`` ("double", or a list) to the
    vectors meant for the precisions the implementation claims. A non-finite answer fails its
    vector. Returns a :class:`Report`.
    """
    sel = _load(path, ids, precision)
    report = Report(manifest_vectors=sel["manifest_vectors"])
    for fam in sel["families"]:
        if not fam["vectors"]:
            continue
        tally = {"family": fam["family"], "file": fam["file"], "listed": fam["listed"],
                 "checked": 0, "passed": 0, "failed": 0, "wrong_side": 0, "unsupported": 0,
                 "worst": None}
        worst_ratio = -1.0
        for v in fam["vectors"]:
            answer = _answer(fn, v)
            verdict = json.loads(_core.conformance_check(json.dumps(v), json.dumps(answer)))
            report.results.append(verdict)
            st = verdict["status"]
            if st == "unsupported":
                tally["unsupported"] += 1
                continue
            tally["checked"] += 1
            tally["passed" if st == "pass" else "failed"] += 1
            tally["wrong_side"] += 1 if verdict.get("wrong_side") else 0
            w = verdict.get("worst")
            if w:
                q = float("inf") if w["ratio"] == "inf" else w["ratio"]
                if q > worst_ratio:
                    worst_ratio, tally["worst"] = q, verdict
        report.families.append(tally)
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
    # never a bare Infinity / NaN: non-finite answers are the strings "inf", "-inf", "nan"
    json.dump({"protocol": PROTOCOL, "results": results}, stdout, allow_nan=False)
    stdout.write("\n")

