"""What a ``convert`` or ``verify`` run leaves as a record: per-file outcome, statistics and findings, no texts.

A :class:`~cuda2rocm.translate.api.ConvertReport` holds every translated text (the output tree has them); the
summary keeps what a report needs and a content hash of each output instead, so a record of a large run stays
small. ``translate/summary.py`` makes them from a run; the result envelope (``cuda2rocm.envelope``) round-trips them.
"""

from __future__ import annotations

from dataclasses import dataclass

from cuda2rocm.model import Finding
from cuda2rocm.results.stats import FileStats, Totals, totals


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


@dataclass(frozen=True)
class MappedDiagnostic:
    """One hipcc diagnostic, mapped back to the line of the CUDA file it was translated from."""

    path: str  # the original (CUDA) file, as displayed
    line: int  # line in the original file (0: unknown)
    translated_line: int
    col: int
    severity: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.severity}: {self.message} (HIP line {self.translated_line})"


@dataclass(frozen=True)
class CompileOutcome:
    """One translation unit compiled by hipcc (``translate/verify.py`` compiles)."""

    path: str  # original file, as displayed
    ok: bool
    diagnostics: tuple[MappedDiagnostic, ...]
    command: tuple[str, ...]
    seconds: float
    output: str = ""  # raw compiler output (trimmed), for messages without a location


@dataclass(frozen=True)
class VerifySummary:
    """A ``verify`` run: the hipcc target and each translation unit's compile outcome."""

    arch: str
    units: tuple[CompileOutcome, ...]
    convert_failures: tuple[str, ...] = ()  # inputs that could not be translated, so were not compiled

    @property
    def passed(self) -> bool:
        return all(u.ok for u in self.units) and not self.convert_failures
