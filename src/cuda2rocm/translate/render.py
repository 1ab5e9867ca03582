"""Plain-text renderings of translation results: diagnostics lines and unified diffs (pure functions)."""

from __future__ import annotations

from collections.abc import Iterable

from cuda2rocm.model import Failed, FileResult, Finding, Severity
from cuda2rocm.rewrite.runner import unified_diff

__all__ = ["diagnostics", "failure_line", "finding_line", "unified_diff"]


def finding_line(f: Finding) -> str:
    return f"{f.path}:{f.line}:{f.col}: {f.severity}: {f.rule} {f.message}"


def failure_line(f: Failed) -> str:
    where = f"{f.path}:{f.line}" if f.line else f.path
    return f"{where}: error: {f.error}"


def diagnostics(results: Iterable[FileResult], at_least: Severity | None = None) -> list[str]:
    """Failure and finding lines; with ``at_least`` only the findings that severe (failures always)."""
    lines: list[str] = []
    for r in results:
        if isinstance(r, Failed):
            lines.append(failure_line(r))
        for f in getattr(r, "findings", ()):
            if at_least is None or f.severity >= at_least:
                lines.append(finding_line(f))
    return lines


def quiet_verdict(results: Iterable[FileResult], fail_on: Severity, changed: int, check: bool) -> list[str]:
    """What ``-q`` still prints when the exit code is 1: the findings at or above ``fail_on`` and, for
    ``--check``, how many files would change (a failing run never ends without a word)."""
    lines = diagnostics(results, fail_on)
    if check and changed:
        lines.append(f"{changed} file(s) would change")
    return lines
