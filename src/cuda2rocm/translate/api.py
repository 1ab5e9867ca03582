"""Library entry points: ``convert_source`` (one text) and ``convert`` (files and trees)."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import NamedTuple

from cuda2rocm.batch import auto_jobs, batch_gc, worker_init
from cuda2rocm.model import Failed, FileResult, Finding, InputProblem, Severity, Translated
from cuda2rocm.project import includes
from cuda2rocm.results.stats import FileStats
from cuda2rocm.rewrite.plan import Job
from cuda2rocm.rewrite.runner import prepare, run_all
from cuda2rocm.source.tokens import forget_kept
from cuda2rocm.translate.engine import translate_text
from cuda2rocm.translate.options import Options
from cuda2rocm.translate.plan import plan_convert
from cuda2rocm.translate.runner import JobOutcome, WritePolicy, run

__all__ = ["ConvertReport", "Options", "WritePolicy", "convert", "convert_source"]


def convert_source(text: str, path: str = "<stdin>", options: Options | None = None) -> FileResult:
    """Translate one source text. Returns Translated, Unchanged, Skipped (already HIP) or Failed."""
    return translate_text(text, path, options or Options()).result


class ConvertReport(NamedTuple):
    files: tuple[JobOutcome, ...]
    wall_seconds: float
    problems: tuple[InputProblem, ...] = ()  # from the walk: symlinks not followed, unlistable directories

    @property
    def results(self) -> list[FileResult]:
        return [f.outcome.result for f in self.files]

    @property
    def stats(self) -> list[FileStats]:
        return [f.outcome.stats for f in self.files]

    @property
    def findings(self) -> list[Finding]:
        return [x for r in self.results for x in getattr(r, "findings", ())]

    @property
    def failed(self) -> list[JobOutcome]:
        return [f for f in self.files if isinstance(f.outcome.result, Failed) or f.write_error]

    @property
    def changed(self) -> list[JobOutcome]:
        return [f for f in self.files if isinstance(f.outcome.result, Translated)]

    def exit_code(self, fail_on: Severity) -> int:
        """2 when a file could not be read or written, 1 for findings at/above ``fail_on``, else 0."""
        if self.failed:
            return 2
        return 1 if any(f.severity >= fail_on for f in self.findings) else 0


def convert(
    paths: Iterable[str | Path] | str | Path,
    output: str | Path | None = None,
    options: Options | None = None,
    *,
    in_place: bool = False,
    policy: WritePolicy | None = None,
) -> ConvertReport:
    """Translate files and trees; writes to ``output`` (file or mirrored directory) or in place."""
    options = options or Options()
    items = [Path(paths)] if isinstance(paths, (str, Path)) else [Path(p) for p in paths]
    out = Path(output) if output is not None else None
    started = time.perf_counter()
    policy = policy or WritePolicy()
    with batch_gc():
        planned = plan_convert(items, out, options, in_place=in_place)
        prepare(planned.jobs, policy)
        try:
            reports = _run_all(planned.jobs, options, policy)
        finally:
            forget_kept()  # tokens the planner kept for files translated elsewhere (workers) or not at all
    return ConvertReport(tuple(reports), time.perf_counter() - started, tuple(planned.problems))


def _run_all(planned: Sequence[Job], options: Options, policy: WritePolicy) -> list[JobOutcome]:
    work = partial(run, options=options, policy=policy)
    workers = auto_jobs(options.jobs, sum(_size(job.source) for job in planned) if options.jobs == 0 else 0)
    model = project_includes(planned, options.max_bytes) if options.hazards or options.fix_hazards else None
    with includes.using(model):
        return run_all(planned, work, workers, initializer=partial(_warm, model))


def project_includes(planned: Sequence[Job], max_bytes: int) -> includes.Includes:
    """The include graph over the planned files, by the paths messages show (headers are read only when a
    translated file includes them)."""
    return includes.Includes({job.display: job.source for job in planned}, max_bytes=max_bytes)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _warm(model: includes.Includes | None = None) -> None:
    """Load the mapping tables once per worker process, before the first file; batch GC settings; the run's
    include graph."""
    worker_init()
    includes.install(model)
    from cuda2rocm.translate import tables

    tables.lookup("cudaMalloc")
    tables.newest_rocm()
