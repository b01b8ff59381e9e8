"""dpref — verified reference implementation of differentially private optimisation (Python).

The package binds the C++ library (``dpref._core``) through the same functions the ``dpref``
command-line tool uses, so every result equals the CLI's bit for bit (spec/python.md):

- :func:`sample` — reference samples of a Philox stream address (``dpref sample``);
  :func:`philox_words` the raw stream words;
- :func:`account` — certified (epsilon, delta) of a ledger of privacy events
  (``dpref account --json``); :mod:`dpref.calibrate` — noise calibrators;
- :func:`audit` — statistical DP auditor, for the built-in mechanisms (``dpref audit``) and
  for Python callables;
- :mod:`dpref.geometry` — exact projections; :mod:`dpref.conformance` — the conformance kit
  (check any implementation against the corpus written by ``dpref vectors``);
- :func:`run`, :func:`papers` — the papers' algorithms; per paper ``dpref.ev``,
  ``dpref.linesearch``, ``dpref.dda``, ``dpref.pwa``, ``dpref.accel``:
  ``dpref.<paper>.run(config, *, precision="double", **params) -> Result`` (one generic module
  per name, made from :func:`papers`; see :mod:`dpref._paper`).

Errors: ``ValueError`` for invalid input (the C++ message), :class:`BudgetExceeded` when a
requested privacy budget would be exceeded, ``RuntimeError`` otherwise.
"""
import os as _os


def _default_data_dir() -> None:
    # shipped data files (e.g. ev's base-load profile, io/data_path.hpp) live in
    # <prefix>/share/dpref; the C++ looks next to the running executable, which for Python is the
    # interpreter, so point DPREF_DATA_DIR at the package's own prefix unless the user set it
    if _os.environ.get("DPREF_DATA_DIR"):
        return
    here = _os.path.dirname(_os.path.abspath(__file__))
    for up in ("../../share/dpref", "../../../../share/dpref"):  # build tree, installed layout
        d = _os.path.normpath(_os.path.join(here, up))
        if _os.path.isdir(d):
            _os.environ["DPREF_DATA_DIR"] = d
            return


_default_data_dir()

from ._core import __version__  # noqa: E402
from ._api import (BudgetExceeded, account, audit, audit_mechanisms, distributions, papers,
                   philox_words, precision_bits, run, sample)
from . import calibrate, conformance, geometry
from ._paper import KNOWN as _KNOWN, Ledger, PaperModule, Result


def _paper_modules() -> list:
    # one module per known or registered paper (PY.PAPERS); `import dpref.ev` works too
    import sys

    names = list(dict.fromkeys(list(_KNOWN) + papers()))
    for name in names:
        if name == "echo":  # the test-only entry of PY.RUN.EXTENSION is not a paper
            continue
        mod = PaperModule(name)
        sys.modules[f"{__name__}.{name}"] = mod
        globals()[name] = mod
    return [n for n in names if n != "echo"]


_PAPER_MODULES = _paper_modules()

__all__ = _PAPER_MODULES + ["Ledger", "PaperModule", "Result", "__version__", "BudgetExceeded", "account", "audit", "audit_mechanisms",
           "calibrate", "conformance", "distributions", "geometry", "papers", "philox_words",
           "precision_bits", "run", "sample"]
