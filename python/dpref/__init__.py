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
- :func:`data_dir` — the files shipped with the installation (conformance corpus, example
  configurations, Python examples); ``python -m dpref ARGS`` (or the ``dpref`` command a wheel
  installs) runs the bundled command-line tool (:mod:`dpref.__main__`).

Errors: ``ValueError`` for invalid input (the C++ message), :class:`BudgetExceeded` when a
requested privacy budget would be exceeded, ``RuntimeError`` otherwise.
"""
import os as _os
import pathlib as _pathlib

# The files shipped with dpref (spec/architecture.md ARCH.INSTALL): the conformance corpus, the
# example configurations, ev's base-load profile, the plot scripts. Searched relative to this
# package, never in a source tree: a wheel's own dpref/share/dpref, the build tree's
# build/<preset>/share/dpref (links to the sources), `cmake --install`'s <prefix>/share/dpref.
# The C++ of the extension finds the same folders relative to itself (io/data_path.hpp, for
# `shipped:ev/...` files): keep the two lists equal. Importing dpref changes no environment.
_DATA_DIR_CANDIDATES = ("share/dpref", "../../share/dpref", "../../../../share/dpref")


def _shipped_data_dir():
    here = _os.path.dirname(_os.path.abspath(__file__))
    for up in _DATA_DIR_CANDIDATES:
        d = _os.path.normpath(_os.path.join(here, up))
        if _os.path.isdir(d):
            return d
    return None


def data_dir() -> _pathlib.Path:
    """The folder of the files shipped with this installation of dpref (``share/dpref``).

    It holds the conformance corpus (``conformance/``, e.g.
    ``dpref.conformance.check(fn, dpref.data_dir() / "conformance" / "accounting")``), the example
    configurations of every paper (``examples/<paper>.json``) and the Python examples
    (``examples/python/``), ev's base-load profile (``ev/``) and the plot scripts
    (``scripts/``). It is found relative to the package: ``dpref/share/dpref`` of a wheel, the
    build tree's ``share/dpref`` or ``<prefix>/share/dpref`` after ``cmake --install``.

    Raises ``FileNotFoundError`` naming the places searched if the package was copied without
    its data.
    """
    d = _shipped_data_dir()
    if d is None:
        here = _os.path.dirname(_os.path.abspath(__file__))
        looked = ", ".join(_os.path.normpath(_os.path.join(here, up))
                           for up in _DATA_DIR_CANDIDATES)
        raise FileNotFoundError(f"dpref.data_dir: the shipped data folder was not found "
                                f"(looked in: {looked})")
    return _pathlib.Path(d)


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
        mod = PaperModule(name)
        sys.modules[f"{__name__}.{name}"] = mod
        globals()[name] = mod
    return names


_PAPER_MODULES = _paper_modules()

__all__ = _PAPER_MODULES + ["Ledger", "PaperModule", "Result", "__version__", "BudgetExceeded", "account", "audit", "audit_mechanisms",
           "calibrate", "conformance", "data_dir", "distributions", "geometry", "papers", "philox_words",
           "precision_bits", "run", "sample"]
