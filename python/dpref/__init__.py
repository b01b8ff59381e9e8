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
- :func:`run`, :func:`papers` — the papers' algorithms (as their entry points become available).

Errors: ``ValueError`` for invalid input (the C++ message), :class:`BudgetExceeded` when a
requested privacy budget would be exceeded, ``RuntimeError`` otherwise.
"""
from ._core import __version__
from ._api import (BudgetExceeded, account, audit, audit_mechanisms, distributions, papers,
                   philox_words, precision_bits, run, sample)
from . import calibrate, conformance, geometry

__all__ = ["__version__", "BudgetExceeded", "account", "audit", "audit_mechanisms",
           "calibrate", "conformance", "distributions", "geometry", "papers", "philox_words",
           "precision_bits", "run", "sample"]
