"""What a ``convert`` or ``verify`` run leaves as a record: per-file outcome, statistics and findings, no texts.

A :class:`~cuda2rocm.translate.api.ConvertReport` holds every translated text (the output tree has them); the
summary keeps what a report needs and a content hash of each output instead, so a record of a large run stays
small. Both are plain frozen dataclasses that the result envelope (``cuda2rocm.envelope``) round-trips.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cuda2rocm.fsio import encode
from cuda2rocm.model import Failed, Finding, Skipped, Translated
from cuda2rocm.translate.stats import FileStats, Totals, totals
from cuda2rocm.translate.verify import CompileOutcome

if TYPE_CHECKING:
    from cuda2rocm.translate.api import ConvertReport


@dataclass(frozen=True)
class FileSummary:
    path: str  # as displayed (relative to the input root)
    status: str  # translated | unchanged | skipped | failed
    dest: str = ""  # where the output went ("" when nothing was written to a file)
    written: bool = False
    write_error: str = ""
    reason: str = ""  # why skipped, or the error of a failed file
    line: int = 0  # line of a failure, where known
    edits: int = 0
    output_sha256: str = ""  # of the translated text ("" when the file did not change)
    findings: tuple[Finding, ...] = ()
    stats: FileStats | None = None


@dataclass(frozen=True)
class ConvertSummary:
    files: tuple[FileSummary, ...]
    wall_seconds: float

    @property
    def totals(self) -> Totals:
        return totals(f.stats for f in self.files if f.stats is not None)

    @property
    def changed(self) -> list[FileSummary]:
        return [f for f in self.files if f.status == "translated"]

    @property
    def failed(self) -> list[FileSummary]:
        return [f for f in self.files if f.status == "failed" or f.write_error]


def summarize(report: ConvertReport) -> ConvertSummary:
    """The record of a convert run (what ``cuda2rocm convert`` publishes)."""
    files = []
    for f in report.files:
        r = f.outcome.result
        reason = r.reason if isinstance(r, Skipped) else r.error if isinstance(r, Failed) else ""
        files.append(FileSummary(
            path=f.job.display,
            status=f.outcome.stats.status,
            dest=f.job.dest.as_posix() if f.job.dest is not None and f.written else "",
            written=f.written,
            write_error=f.write_error,
            reason=reason,
            line=r.line if isinstance(r, Failed) else 0,
            edits=len(r.edits) if isinstance(r, Translated) else 0,
            output_sha256=hashlib.sha256(encode(r.text)).hexdigest() if isinstance(r, Translated) else "",
            findings=tuple(getattr(r, "findings", ())),
            stats=f.outcome.stats,
        ))
    return ConvertSummary(tuple(files), report.wall_seconds)


@dataclass(frozen=True)
class VerifySummary:
    """A ``verify`` run: the hipcc target and each translation unit's compile outcome."""

    arch: str
    units: tuple[CompileOutcome, ...]
    convert_failures: tuple[str, ...] = ()  # inputs that could not be translated, so were not compiled

    @property
    def passed(self) -> bool:
        return all(u.ok for u in self.units) and not self.convert_failures


def verify_summary(arch: str, outcomes: Sequence[CompileOutcome], report: ConvertReport | None = None) -> VerifySummary:
    failures = tuple(f.job.display for f in report.failed) if report is not None else ()
    return VerifySummary(arch, tuple(outcomes), failures)
