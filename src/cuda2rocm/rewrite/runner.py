"""The rewrite runner every rewriting command shares: read, transform, then diff, check, or write safely.

A command supplies a per-file transform (text -> new text or none, plus its own per-file detail: findings,
statistics, an error) and gets, for every planned file (:mod:`cuda2rocm.rewrite.plan`):

- reading with a size limit and a clear per-file error (binary, not UTF-8, too large, unreadable): the
  transform is not called, nothing is written, the run goes on;
- writing only when asked (``WritePolicy.write``; ``--diff``, ``--check`` and ``--dry-run`` write nothing):
  atomic (temporary file + ``os.replace``; in-place rewrites and backups fsynced), the source's mode kept;
- in place: only changed files are rewritten, after a ``<file>.orig`` backup unless ``backup=False``; a
  source whose bytes changed since it was read (sha256 compared right before the write) is refused;
- mirrored: every file that did not fail is written (unchanged ones as they are);
- an existing output or backup is never replaced without ``force``; refusals are per-file write errors;
- temporary files a killed run left in the directories about to be written are removed first;
- worker processes that die with the parent (:func:`cuda2rocm.batch.worker_pool`);
- a per-file :class:`FileOutcome` with the original text (``keep_original``) for unified diffs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from enum import Enum
from functools import partial
from pathlib import Path
from typing import Generic, NamedTuple, TypeVar

from cuda2rocm.batch import worker_pool
from cuda2rocm.files.own import BACKUP_SUFFIX
from cuda2rocm.fsio import (
    InputError,
    clean_stale_temps,
    decode,
    read_limited,
    shown,
    write_bytes_atomic,
    write_text_atomic,
)
from cuda2rocm.model import InputProblem
from cuda2rocm.rewrite.plan import Job, plan

T = TypeVar("T")
R = TypeVar("R")


class WritePolicy(NamedTuple):
    write: bool = True  # False: --check / --diff / --dry-run
    force: bool = False  # replace existing outputs and backups
    backup: bool = True  # in place: keep <file>.orig
    keep_original: bool = False  # keep the source text in the outcome (for diffs)


class Mode(Enum):
    """How a rewriting command's results are delivered (its CLI maps flags onto these)."""

    IN_PLACE = "in-place"  # rewrite the inputs (atomic, .orig backups unless backup=False)
    MIRROR = "mirror"  # write a copy of the input tree into an output directory
    DIFF = "diff"  # write nothing; unified diffs
    CHECK = "check"  # write nothing; which files would change
    DRY_RUN = "dry-run"  # write nothing; what would be written where

    @property
    def writes(self) -> bool:
        return self in (Mode.IN_PLACE, Mode.MIRROR)

    def policy(self, *, force: bool = False, backup: bool = True) -> WritePolicy:
        return WritePolicy(write=self.writes, force=force, backup=backup, keep_original=self is Mode.DIFF)


class Rewrite(NamedTuple, Generic[T]):
    """What a transform returns for one text."""

    detail: T  # the command's own per-file result (convert: the translation outcome and statistics)
    text: str | None = None  # the new text; None: the file stays as it is
    failed: bool = False  # the transform could not handle the file: nothing is written for it


class FileOutcome(NamedTuple, Generic[T]):
    job: Job
    detail: T
    original: str = ""  # the source text, with WritePolicy.keep_original ("" otherwise or when unreadable)
    text: str | None = None  # the new text when the file changes
    written: bool = False
    write_error: str = ""
    read_error: InputError | None = None
    digest: str = ""  # sha256 (hex) of the bytes read: a later write can refuse a file changed since then

    @property
    def changed(self) -> bool:
        return self.text is not None

    def diff(self, output: str = "") -> str:
        """Unified diff of the change ("" when unchanged); needs ``keep_original``."""
        if self.text is None:
            return ""
        return unified_diff(self.original, self.text, self.job.display, output or self.job.display)


Transform = Callable[[Job, str], Rewrite[T]]
Unreadable = Callable[[Job, InputError], T]


def rewrite_file(job: Job, transform: Transform[T], unreadable: Unreadable[T], policy: WritePolicy,
                 max_bytes: int, keep_undecodable: bool = False) -> FileOutcome[T]:
    """Read ``job.source``, transform it, and write the result where the plan and the policy say.
    ``keep_undecodable``: a file with bytes that are not UTF-8 is transformed anyway, those bytes kept
    (:func:`cuda2rocm.fsio.decode`)."""
    try:
        data = read_limited(job.source, max_bytes)
        text = decode(data, max_bytes, keep_undecodable=keep_undecodable)
    except InputError as exc:
        return FileOutcome(job, unreadable(job, exc), read_error=exc)
    digest = hashlib.sha256(data).hexdigest()
    change = transform(job, text)
    original = text if policy.keep_original else ""
    if not policy.write or job.dest is None or change.failed:
        return FileOutcome(job, change.detail, original, change.text, digest=digest)
    error = _write(job, data, digest, text, change.text, policy)
    written = not error and (change.text is not None or not job.in_place)
    return FileOutcome(job, change.detail, original, change.text, written=written, write_error=error, digest=digest)


def _write(job: Job, data: bytes, digest: str, text: str, new: str | None, policy: WritePolicy) -> str:
    """Write the result; returns an error message instead of clobbering or of losing a concurrent edit."""
    assert job.dest is not None
    in_place = job.in_place
    if in_place and new is None:
        return ""
    try:
        if in_place:
            if hashlib.sha256(job.source.read_bytes()).hexdigest() != digest:
                return f"{job.source} changed since it was read; not rewritten (run again)"
            if policy.backup:
                orig = job.source.with_name(job.source.name + BACKUP_SUFFIX)
                if orig.exists() and not policy.force:
                    return f"backup {orig} exists (use --force to replace it, or --no-backup)"
                write_bytes_atomic(orig, data, mode_from=job.source)
        elif job.dest.exists() and not policy.force:
            return f"output {job.dest} exists (use --force to overwrite)"
        # an output beside its untouched source can be made again: only in-place rewrites wait for the disk
        write_text_atomic(job.dest, text if new is None else new, mode_from=job.source, durable=in_place)
    except OSError as exc:
        return f"cannot write {job.dest}: {exc.strerror or exc}"
    return ""


def prepare(jobs: Iterable[Job], policy: WritePolicy) -> list[Path]:
    """Before writing: remove the temporary files a killed run of ours left where this run writes."""
    if not policy.write:
        return []
    folders = {job.dest.parent for job in jobs if job.dest is not None}
    return [p for folder in sorted(folders) for p in clean_stale_temps(folder)]


def run_all(jobs: Sequence[Job], work: Callable[[Job], R], workers: int,
            initializer: Callable[[], None] | None = None) -> list[R]:
    """``work`` over ``jobs`` in order, in ``workers`` processes when more than one (they die with this one)."""
    if workers <= 1 or len(jobs) <= 1:
        return [work(job) for job in jobs]
    # 32 chunks per worker: at the end a worker waits on the others for at most one small chunk
    chunk = max(1, len(jobs) // (workers * 32))
    with worker_pool(workers, initializer) if initializer else worker_pool(workers) as pool:
        return list(pool.map(work, jobs, chunksize=chunk))


def unified_diff(original: str, new: str, path: str, output: str) -> str:
    import difflib

    a = shown(original).splitlines(keepends=True)
    b = shown(new).splitlines(keepends=True)
    return "".join(difflib.unified_diff(a, b, fromfile=f"a/{path}", tofile=f"b/{output}"))


class RewriteRun(NamedTuple, Generic[T]):
    files: list[FileOutcome[T]]
    problems: list[InputProblem]  # from planning: links not followed, directories that could not be listed
    removed_temps: list[Path]  # temporary files of a killed earlier run, removed before writing

    @property
    def changed(self) -> list[FileOutcome[T]]:
        return [f for f in self.files if f.changed]


def rewrite_paths(paths: Sequence[Path], accept: Callable[[str], bool], transform: Transform[T],
                  unreadable: Unreadable[T], mode: Mode, *, output: Path | None = None, force: bool = False,
                  backup: bool = True, max_bytes: int = 32 * 2**20, workers: int = 1,
                  gitignore: bool = True) -> RewriteRun[T]:
    """Plan, then rewrite every file: the whole flow for a command with nothing of its own to add.

    ``mode`` MIRROR needs ``output``; the others ignore it except DRY_RUN, which plans outputs there. With
    ``workers`` > 1, ``transform`` and ``unreadable`` must be picklable (module-level functions, partials).
    """
    if mode is Mode.MIRROR and output is None:
        raise ValueError("Mode.MIRROR needs an output directory")
    planned = plan(paths, accept, output=output if mode in (Mode.MIRROR, Mode.DRY_RUN) else None,
                   in_place=mode is Mode.IN_PLACE)
    policy = mode.policy(force=force, backup=backup)
    removed = prepare(planned.jobs, policy)
    work = partial(rewrite_file, transform=transform, unreadable=unreadable, policy=policy, max_bytes=max_bytes)
    return RewriteRun(run_all(planned.jobs, work, workers), planned.problems, removed)
