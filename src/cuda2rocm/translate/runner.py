"""Translate one planned file and write its output (atomic, with backup, never clobbering without force)."""

from __future__ import annotations

from dataclasses import dataclass

from cuda2rocm.model import Failed, Translated
from cuda2rocm.translate.engine import Outcome, translate_text
from cuda2rocm.translate.io import InputError, backup, read_source, write_atomic
from cuda2rocm.translate.options import Options
from cuda2rocm.translate.plan import Job
from cuda2rocm.translate.stats import FileStats


@dataclass(frozen=True)
class WritePolicy:
    write: bool = True  # False: --check / --diff / --dry-run
    force: bool = False
    backup: bool = True  # in place: keep <file>.orig
    keep_original: bool = False  # keep the source text in the report (for --diff)


@dataclass(frozen=True)
class JobOutcome:
    """One planned file after translation: its job, the outcome (result and stats), whether it was written."""

    job: Job
    outcome: Outcome
    original: str  # the source text ("" when it could not be read)
    written: bool = False
    write_error: str = ""


def run(job: Job, options: Options, policy: WritePolicy) -> JobOutcome:
    try:
        text = read_source(job.source, options.max_bytes)
    except InputError as exc:
        failed = Failed(job.display, exc.message, exc.line)
        return JobOutcome(job, Outcome(failed, FileStats(job.display, "failed")), "")
    output = str(job.dest) if job.dest is not None else job.display
    renamed = job.dest is not None and job.dest != job.source and options.cu_suffix not in ("", ".cu")
    outcome = translate_text(text, job.display, options, output, source=job.source, renames_cu=renamed)
    original = text if policy.keep_original else ""
    if not policy.write or job.dest is None or isinstance(outcome.result, Failed):
        return JobOutcome(job, outcome, original)
    error = _write(job, outcome, text, policy)
    return JobOutcome(job, outcome, original, written=not error, write_error=error)


def _write(job: Job, outcome: Outcome, text: str, policy: WritePolicy) -> str:
    """Write the output; returns an error message instead of clobbering."""
    assert job.dest is not None
    result = outcome.result
    new_text = result.text if isinstance(result, Translated) else text
    in_place = job.dest == job.source
    if in_place and not isinstance(result, Translated):
        return ""
    try:
        if in_place and policy.backup:
            orig = job.source.with_name(job.source.name + ".orig")
            if orig.exists() and not policy.force:
                return f"backup {orig} exists (use --force to replace it, or --no-backup)"
            backup(job.source)
        elif not in_place and job.dest.exists() and not policy.force:
            return f"output {job.dest} exists (use --force to overwrite)"
        # an output beside its untouched source can be made again: only in-place rewrites wait for the disk
        write_atomic(job.dest, new_text, mode_from=job.source, durable=in_place)
    except OSError as exc:
        return f"cannot write {job.dest}: {exc.strerror or exc}"
    return ""
