"""The record of a ``convert`` or ``verify`` run, made from the run (the values: :mod:`cuda2rocm.results.translate`)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cuda2rocm.fsio import encode
from cuda2rocm.model import Failed, Skipped, Translated
from cuda2rocm.results.translate import CompileOutcome, ConvertSummary, FileSummary, VerifySummary

if TYPE_CHECKING:
    from cuda2rocm.translate.api import ConvertReport


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


def verify_summary(arch: str, outcomes: Sequence[CompileOutcome], report: ConvertReport | None = None) -> VerifySummary:
    failures = tuple(f.job.display for f in report.failed) if report is not None else ()
    return VerifySummary(arch, tuple(outcomes), failures)
