"""Rules of the scan engine (C2R-S inventory/custom code/plugins/binaries, C2R-P Python, C2R-D deployment,
C2R-E input problems). Importing this package registers them; analyzers emit through :func:`emit`."""

from __future__ import annotations

from cuda2rocm.model import Finding
from cuda2rocm.rules import RULES
from cuda2rocm.scan.rules import _binaries, _deploy, _inputs, _inventory, _python  # noqa: F401  (registers)

__all__ = ["emit"]


def emit(rule_id: str, path: str, line: int, col: int, message: str, *, fix: str = "") -> Finding:
    """A finding of one of the scan rules (they are registered at import of this package)."""
    return RULES[rule_id].finding(path, line, col, message, fix=fix)
