"""A convert's statistics, like hipify-perl's ``--print-stats``: references converted by library and kind, per file
(:class:`FileStats`) and summed (:class:`Totals`). Every convert makes them, so this module holds nothing else;
``translate/stats.py`` prints them as text, JSON and CSV."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class FileStats:
    path: str
    status: str  # translated | unchanged | skipped | failed
    lines: int = 0
    converted: Mapping[tuple[str, str], int] = field(default_factory=dict)  # (library, kind) -> references
    unsupported: int = 0
    findings: int = 0
    seconds: float = 0.0

    @property
    def converted_total(self) -> int:
        return sum(self.converted.values())


@dataclass(frozen=True)
class Totals:
    files: int
    by_status: Mapping[str, int]
    lines: int
    converted: Mapping[tuple[str, str], int]
    unsupported: int
    findings: int
    seconds: float  # sum of per-file times (CPU work, not wall time)

    @property
    def converted_total(self) -> int:
        return sum(self.converted.values())


def totals(files: Iterable[FileStats]) -> Totals:
    items = list(files)
    converted: Counter[tuple[str, str]] = Counter()
    for f in items:
        converted.update(f.converted)
    return Totals(
        files=len(items),
        by_status=dict(Counter(f.status for f in items)),
        lines=sum(f.lines for f in items),
        converted=dict(converted),
        unsupported=sum(f.unsupported for f in items),
        findings=sum(f.findings for f in items),
        seconds=sum(f.seconds for f in items),
    )
