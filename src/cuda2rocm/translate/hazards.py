"""Bridge to ``cuda2rocm.hazards`` (built separately): findings always, safe fixes with --fix-hazards.

Imported lazily; when the hazard package is not there (or lacks a function) translation goes on without it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cuda2rocm.model import Edit, Finding
from cuda2rocm.source.tokens import Token


def _function(name: str) -> Callable[..., Any] | None:
    try:
        import cuda2rocm.hazards as hz
    except ImportError:
        return None
    fn = getattr(hz, name, None)
    return fn if callable(fn) else None


def findings(tokens: Sequence[Token], text: str, path: str, rocm: str) -> list[Finding]:
    analyze = _function("analyze")
    if analyze is None:
        return []
    try:
        return list(analyze(tokens, text, path, rocm=rocm))
    except ImportError:  # the hazard package is still being built
        return []


def fixes(tokens: Sequence[Token], text: str, path: str) -> list[Edit]:
    fix = _function("fixes")
    if fix is None:
        return []
    try:
        return list(fix(tokens, text, path))
    except ImportError:
        return []
