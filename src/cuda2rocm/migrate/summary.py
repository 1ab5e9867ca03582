"""The record of a ``migrate build|deploy`` run, made from the run (the values: :mod:`cuda2rocm.results.migrate`)."""

from __future__ import annotations

import hashlib

from cuda2rocm.envelope.codec import encode as encode_value
from cuda2rocm.fsio import encode
from cuda2rocm.migrate.engine import MigrationRun
from cuda2rocm.results.migrate import AddedFile, MigratedFile, MigrationSummary
from cuda2rocm.rewrite.runner import Mode


def _sha(text: str) -> str:
    return hashlib.sha256(encode(text)).hexdigest()


def summarize(run: MigrationRun, command: str, mode: Mode) -> MigrationSummary:
    """The record of a ``migrate build|deploy`` run (what the CLI publishes)."""
    files = []
    for o in run.files:
        m = o.detail
        failed = bool(m.problems or o.write_error)
        files.append(MigratedFile(
            path=o.job.display,
            status="failed" if failed else "changed" if o.changed else "unchanged",
            dest=o.job.dest.as_posix() if o.job.dest is not None and o.written else "",
            written=o.written,
            write_error=o.write_error,
            edits=len(m.edits),
            output_sha256=_sha(o.text) if o.text is not None else "",
            problems=tuple(f"{p.line}: {p.message}" for p in m.problems),
            findings=tuple(m.findings),
        ))
    added = tuple(AddedFile(g.path, "added" if g.existing is None else "unchanged" if not g.changed else "differs",
                            g.written, g.write_error, _sha(g.text), tuple(g.findings)) for g in run.generated)
    options = encode_value(run.options) if run.options is not None else None
    if isinstance(options, dict) and hasattr(run.options, "stack"):  # the target stack the run wrote for
        options.pop("decided", None)
        options["stack"] = run.options.stack.to_data()
    return MigrationSummary(command, mode.value, tuple(files), added, tuple(run.problems),
                            options if isinstance(options, dict) else None, tuple(run.for_review), run.seconds)
