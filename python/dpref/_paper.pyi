"""Type stubs of the per-paper API (spec/python.md PY.PAPERS)."""
import types
from typing import Any, Dict, Optional, Mapping, Tuple

KNOWN: Tuple[str, ...]

class Ledger:
    def __init__(self, doc: Mapping[str, Any], precision: str) -> None: ...
    def to_json(self) -> Dict[str, Any]: ...
    @property
    def events(self) -> list: ...
    def account(self, *, method: Optional[str] = ..., precision: Optional[str] = ...,
                **options: Any) -> Dict[str, Any]: ...

class Result:
    paper: str
    algorithm: str
    precision: str
    status: str
    message: str
    iterations: int
    config: Dict[str, Any]
    privacy: Dict[str, Any]
    ledger: Optional[Ledger]
    iterates: Any  # dict / numpy arrays (float64 at double, object arrays of mpmath.mpf otherwise)
    trace: Any
    non_private: Optional[Any]
    def __init__(self, doc: Mapping[str, Any], precision: str) -> None: ...
    def to_json(self) -> Dict[str, Any]: ...

class PaperModule(types.ModuleType):
    paper: str
    Result: type
    Ledger: type
    def __init__(self, name: str) -> None: ...
    def available(self) -> bool: ...
    def run(self, config: Optional[Mapping[str, Any]] = ..., *, precision: str = ...,
            **overrides: Any) -> Result: ...
