"""What ``migrate build`` and ``migrate deploy`` share: plan a tree, migrate every file of a kind they handle as
minimal edits through the rewrite runner, and write the files a migration adds.

A command supplies ``accept`` (which paths it migrates), a picklable per-file ``migrate`` (path relative to the
project root, text -> :class:`~cuda2rocm.migrate.base.FileMigration`) and optionally ``generate`` (the
outcomes -> files to add, e.g. a canary manifest or a validation job). The engine gives it the runner's
guarantees (diff by default, atomic in-place writes with ``.orig`` backups, a mirrored copy under ``-o``,
refusal to clobber without ``force``; a file that cannot be read or parsed is reported with its line and left
byte-identical while the others are migrated) and one result, :class:`MigrationRun`, with one exit-code rule.

Added files follow the same policy: shown as a diff against nothing, written atomically under the project (in
place) or the output directory (mirror), an existing file with other content never replaced without
``force``, one with the same content left alone (so a second run changes nothing).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

from cuda2rocm.fsio import InputError, write_text_atomic
from cuda2rocm.migrate.base import FileMigration
from cuda2rocm.model import Finding, InputProblem, Severity
from cuda2rocm.rewrite.plan import Job, plan
from cuda2rocm.rewrite.runner import (
    FileOutcome,
    Mode,
    Rewrite,
    WritePolicy,
    prepare,
    rewrite_file,
    run_all,
    unified_diff,
)
from cuda2rocm.source.edits import apply_edits
from cuda2rocm.source.formats._base import Problem

MAX_BYTES = 32 * 2**20

#: (path relative to the project root, text) -> the file's migration; picklable for worker processes
Migrate = Callable[[str, str], FileMigration]


@dataclass(frozen=True)
class Generated:
    """A file a migration adds, ``path`` relative to the project root ('/' separated)."""

    path: str
    text: str
    findings: tuple[Finding, ...] = ()
    existing: str | None = None  # what is there now (None: nothing)
    written: bool = False
    write_error: str = ""

    @property
    def changed(self) -> bool:
        return self.existing != self.text

    def diff(self) -> str:
        if not self.changed:
            return ""
        if self.existing is None:
            return unified_diff("", self.text, self.path, self.path).replace(f"--- a/{self.path}", "--- /dev/null", 1)
        return unified_diff(self.existing, self.text, self.path, self.path)


Generate = Callable[[Sequence[FileOutcome[FileMigration]]], Sequence[Generated]]


@dataclass(frozen=True)
class MigrationRun:
    """The result of ``migrate build`` or ``migrate deploy``.

    ``settled``: rule ids whose findings need no one even without an edit (an option translated inside a larger
    rewritten expression); ``review_when_fixed``: rule ids whose findings stay for review at MEDIUM or above
    even with their edit applied (an option removed that changed code generation)."""

    files: tuple[FileOutcome[FileMigration], ...]
    problems: tuple[InputProblem, ...]  # from planning: links not followed, unlistable directories
    options: Any
    generated: tuple[Generated, ...] = ()
    seconds: float = 0.0
    settled: frozenset[str] = field(default_factory=frozenset)
    review_when_fixed: frozenset[str] = field(default_factory=frozenset)

    @property
    def findings(self) -> list[Finding]:
        return [f for o in self.files for f in o.detail.findings] + [f for g in self.generated for f in g.findings]

    @property
    def changed(self) -> list[FileOutcome[FileMigration]]:
        return [o for o in self.files if o.changed]

    @property
    def added(self) -> list[Generated]:
        return [g for g in self.generated if g.changed]

    @property
    def failed(self) -> list[FileOutcome[FileMigration]]:
        return [o for o in self.files if o.detail.problems or o.write_error]

    @property
    def for_review(self) -> list[Finding]:
        """What a person must still decide: findings with no edit of their own (except ``settled`` rules), and
        ``review_when_fixed`` findings at MEDIUM or above."""
        return [f for f in self.findings if (f.remedy is None and f.rule not in self.settled)
                or (f.rule in self.review_when_fixed and f.severity >= Severity.MEDIUM)]

    def exit_code(self, fail_on: Severity = Severity.HIGH) -> int:
        if self.problems or self.failed or any(g.write_error for g in self.generated):
            return 2
        return 1 if any(f.severity >= fail_on for f in self.findings) else 0


def _transform(job: Job, text: str, migrate: Migrate) -> Rewrite[FileMigration]:
    migration = migrate(job.display, text)
    if migration.problems:
        return Rewrite(migration, None, failed=True)
    new = apply_edits(text, migration.edits)
    return Rewrite(migration, new if new != text else None)


def _unreadable(job: Job, exc: InputError) -> FileMigration:
    return FileMigration(job.display, problems=(Problem(exc.line, exc.message),))


def planned(root: Path, accept: Callable[[str], bool], mode: Mode, output: Path | None,
            gitignore: bool = True) -> tuple[list[Job], list[InputProblem]]:
    """The files under ``root`` that ``accept`` takes, with where each is written in ``mode``."""
    if mode is Mode.MIRROR and output is None:
        raise ValueError("Mode.MIRROR needs an output directory")
    done = plan([root], accept, output=output if mode in (Mode.MIRROR, Mode.DRY_RUN) else None,
                in_place=mode is Mode.IN_PLACE, gitignore=gitignore)
    return done.jobs, done.problems


def migrate_jobs(jobs: Sequence[Job], migrate: Migrate, *, mode: Mode, force: bool = False, backup: bool = True,
                 workers: int = 1) -> list[FileOutcome[FileMigration]]:
    """Migrate and (as ``mode`` says) write every planned file."""
    policy = mode.policy(force=force, backup=backup)
    prepare(jobs, policy)
    work = partial(rewrite_file, transform=partial(_transform, migrate=migrate), unreadable=_unreadable,
                   policy=policy, max_bytes=MAX_BYTES)
    return run_all(jobs, work, workers)


def migrate_tree(root: Path, accept: Callable[[str], bool], migrate: Migrate, *, options: Any, mode: Mode = Mode.DIFF,
                 output: Path | None = None, force: bool = False, backup: bool = True, gitignore: bool = True,
                 workers: int = 1, generate: Generate | None = None, settled: frozenset[str] = frozenset(),
                 review_when_fixed: frozenset[str] = frozenset()) -> MigrationRun:
    """The whole flow for a command whose files need no project-wide pass first."""
    started = time.perf_counter()
    jobs, problems = planned(root, accept, mode, output, gitignore)
    files = migrate_jobs(jobs, migrate, mode=mode, force=force, backup=backup, workers=workers)
    return finish(root, files, problems, options, mode=mode, output=output, force=force, generate=generate,
                  started=started, settled=settled, review_when_fixed=review_when_fixed)


def finish(root: Path, files: Sequence[FileOutcome[FileMigration]], problems: Sequence[InputProblem], options: Any,
           *, mode: Mode, output: Path | None, force: bool, started: float, generate: Generate | None = None,
           settled: frozenset[str] = frozenset(), review_when_fixed: frozenset[str] = frozenset()) -> MigrationRun:
    """The run's result, after adding (and, as ``mode`` says, writing) the generated files."""
    added = tuple(generate(files)) if generate is not None else ()
    base = output if mode is Mode.MIRROR and output is not None else root
    policy = mode.policy(force=force)
    added = tuple(write_generated(g, base, policy) for g in added)
    return MigrationRun(tuple(files), tuple(problems), options, added, time.perf_counter() - started,
                        settled, review_when_fixed)


def write_generated(gen: Generated, base: Path, policy: WritePolicy) -> Generated:
    """``gen`` with what is at ``base/gen.path`` now, written there when the policy writes and it differs."""
    dest = base / gen.path
    existing: str | None = None
    if dest.is_file():
        try:
            existing = dest.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            existing = ""
    gen = replace(gen, existing=existing)
    if not policy.write or not gen.changed:
        return gen
    if existing is not None and not policy.force:
        return replace(gen, write_error=f"{dest} exists with other content (use --force to replace it)")
    try:
        write_text_atomic(dest, gen.text)
    except OSError as exc:
        return replace(gen, write_error=f"cannot write {dest}: {exc.strerror or exc}")
    return replace(gen, written=True)
