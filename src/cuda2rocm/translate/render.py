"""Plain-text renderings of translation results: diagnostics lines and unified diffs (pure functions)."""

from __future__ import annotations

from collections.abc import Iterable

from cuda2rocm.model import Failed, FileResult, Finding
from cuda2rocm.rewrite.runner import unified_diff

__all__ = ["diagnostics", "failure_line", "finding_line", "unified_diff"]


def finding_line(f: Finding) -> str:
    return f"{f.path}:{f.line}:{f.col}: {f.severity}: {f.rule} {f.message}"


def failure_line(f: Failed) -> str:
    where = f"{f.path}:{f.line}" if f.line else f.path
    return f"{where}: error: {f.error}"


def diagnostics(results: Iterable[FileResult]) -> list[str]:
    lines: list[str] = []
    for r in results:
        if isinstance(r, Failed):
            lines.append(failure_line(r))
        for f in getattr(r, "findings", ()):
            lines.append(finding_line(f))
    return lines
