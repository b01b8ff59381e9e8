"""Type stubs of the dpref package (spec/python.md)."""
import os
import pathlib
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import calibrate as calibrate
from . import conformance as conformance
from . import geometry as geometry

__version__: str

class BudgetExceeded(RuntimeError): ...

Real = Union[str, int, float, Any]  # decimal text, int, float, mpmath.mpf, numpy scalar

def distributions() -> Dict[str, Tuple[str, List[Tuple[str, str]]]]: ...
def precision_bits(precision: str = ...) -> int: ...
def sample(dist: str, n: int, *, params: Union[None, Real, Mapping[str, Any]] = ..., seed: int,
           stream: int = ..., substream: int = ..., position: int = ...,
           precision: str = ..., output: str = ..., kernel: str = ...,
           sampler: str = ..., threads: int = ...) -> Union[np.ndarray, List[Any]]: ...
def philox_words(n: int, *, seed: int, stream: int = ..., substream: int = ...,
                 position: int = ..., lane: int = ...) -> np.ndarray: ...
def account(events: Union[str, os.PathLike, Mapping[str, Any], Sequence[Mapping[str, Any]]], *,
            delta: Optional[Real] = ..., method: Optional[str] = ..., max_order: Optional[int] = ...,
            conversion: Optional[str] = ..., precision: str = ...,
            budget: Union[None, Tuple[Real, Real], Mapping[str, Real]] = ...) -> Dict[str, Any]: ...
def audit_mechanisms() -> List[str]: ...
def audit(mechanism: Union[str, Callable[..., Any]], *, epsilon: float = ...,
          delta: Optional[float] = ..., samples: int = ..., seed: int = ..., alpha: float = ...,
          threads: int = ..., dim: int = ..., candidates: int = ...,
          pairs: Optional[Sequence[str]] = ..., test_samples: Optional[int] = ...,
          grid: Optional[Tuple[float, float, int]] = ..., lowbits: bool = ...,
          chunk: int = ...) -> Dict[str, Any]: ...
def papers() -> List[str]: ...
def run(paper: str, config: Optional[Mapping[str, Any]] = ..., *,
        precision: str = ...) -> Dict[str, Any]: ...
def data_dir() -> pathlib.Path: ...

from ._paper import Ledger as Ledger, PaperModule as PaperModule, Result as Result

# one generic module per paper (spec/python.md PY.PAPERS); run() of a paper whose runner is not
# registered raises ValueError naming the registered ones
ev: PaperModule
linesearch: PaperModule
dda: PaperModule
pwa: PaperModule
accel: PaperModule
