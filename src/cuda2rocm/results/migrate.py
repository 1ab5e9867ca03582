"""What a ``migrate build`` or ``migrate deploy`` run leaves as a record: per-file outcome, edits, findings and
output hashes, the added files, the input problems and the options, no texts.

A :class:`~cuda2rocm.migrate.engine.MigrationRun` holds every migrated text; :class:`MigrationSummary` keeps what
a report needs (the ``migrate-build`` / ``migrate-deploy`` envelope payload), the way
:mod:`cuda2rocm.results.translate` does for ``convert``. ``migrate/summary.py`` makes it from a run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cuda2rocm.model import Finding, InputProblem, Severity


@dataclass(frozen=True)
class MigratedFile:
    path: str  # relative to the project root
    status: str  # changed | unchanged | failed
    dest: str = ""  # where it was written ("" when nothing was written)
    written: bool = False
    write_error: str = ""
    edits: int = 0
    output_sha256: str = ""  # of the migrated text ("" when the file did not change)
    problems: tuple[str, ...] = ()  # "line: message" of a file that could not be read or parsed
    findings: tuple[Finding, ...] = ()


@dataclass(frozen=True)
class AddedFile:
    """A file the migration adds (a canary manifest, a validation job, a CI job)."""

    path: str
    status: str  # added | unchanged (already there with this content) | differs (there with other content)
    written: bool = False
    write_error: str = ""
    sha256: str = ""
    findings: tuple[Finding, ...] = ()


@dataclass(frozen=True)
class MigrationSummary:
    command: str  # build | deploy
    mode: str  # the rewrite runner's mode: diff, check, dry-run, in-place, mirror
    files: tuple[MigratedFile, ...]
    added: tuple[AddedFile, ...] = ()
    problems: tuple[InputProblem, ...] = ()
    options: dict[str, Any] | None = None  # the run's BuildOptions / DeployOptions as plain data
    for_review: tuple[Finding, ...] = ()  # what a person must still decide (MigrationRun.for_review)
    seconds: float = 0.0

    @property
    def changed(self) -> list[MigratedFile]:
        return [f for f in self.files if f.status == "changed"]

    @property
    def failed(self) -> list[MigratedFile]:
        return [f for f in self.files if f.status == "failed" or f.write_error]

    @property
    def findings(self) -> list[Finding]:
        return [x for f in self.files for x in f.findings] + [x for a in self.added for x in a.findings]

    @property
    def edits(self) -> int:
        return sum(f.edits for f in self.files)

    def exit_code(self, fail_on: Severity = Severity.HIGH) -> int:
        """The exit code the run had (:meth:`MigrationRun.exit_code`), from the record alone."""
        if self.problems or self.failed or any(a.write_error for a in self.added):
            return 2
        return 1 if any(f.severity >= fail_on for f in self.findings) else 0
