"""``convert``'s transform for the shared rewrite runner (:mod:`cuda2rocm.rewrite.runner`): translate one
planned file; reading, writing, backups and refusals are the runner's."""

from __future__ import annotations

from typing import NamedTuple

from cuda2rocm.fsio import InputError
from cuda2rocm.model import Failed, Translated
from cuda2rocm.results.stats import FileStats
from cuda2rocm.rewrite.plan import Job
from cuda2rocm.rewrite.runner import Rewrite, WritePolicy, rewrite_file
from cuda2rocm.translate.engine import Outcome, translate_text
from cuda2rocm.translate.options import Options

__all__ = ["JobOutcome", "WritePolicy", "run"]


class JobOutcome(NamedTuple):
    """One planned file after translation: its job, the outcome (result and stats), whether it was written."""

    job: Job
    outcome: Outcome
    original: str  # the source text ("" when it could not be read)
    written: bool = False
    write_error: str = ""


def run(job: Job, options: Options, policy: WritePolicy) -> JobOutcome:
    done = rewrite_file(job, lambda j, text: _translate(j, text, options), _unreadable, policy, options.max_bytes,
                        keep_undecodable=True)  # legacy Latin-1/cp1252 comments: translated, their bytes kept
    return JobOutcome(job, done.detail, done.original, done.written, done.write_error)


def _translate(job: Job, text: str, options: Options) -> Rewrite[Outcome]:
    output = str(job.dest) if job.dest is not None else job.display
    renamed = job.dest is not None and not job.in_place and options.cu_suffix not in ("", ".cu")
    outcome = translate_text(text, job.display, options, output, source=job.source, renames_cu=renamed)
    result = outcome.result
    return Rewrite(outcome, result.text if isinstance(result, Translated) else None, isinstance(result, Failed))


def _unreadable(job: Job, exc: InputError) -> Outcome:
    return Outcome(Failed(job.display, exc.message, exc.line), FileStats(job.display, "failed"))
