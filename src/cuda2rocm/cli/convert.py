"""``cuda2rocm convert``: translate CUDA source to HIP (argument parsing and printing only).

The translation engine is imported when a translation runs, not for ``convert --help`` (see cli/main.py).
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from cuda2rocm import envelope
from cuda2rocm.cli._options import build_options, translation_options
from cuda2rocm.model import Failed, FileResult, Severity, Skipped, Translated

if TYPE_CHECKING:
    from cuda2rocm.translate.api import ConvertReport
    from cuda2rocm.translate.options import Options

SEVERITIES = [str(s) for s in Severity]


@click.command("convert")
@click.argument("paths", nargs=-1, required=True, type=click.Path(allow_dash=True, path_type=str))
@click.option("-o", "--output", type=click.Path(path_type=str), help="Output file, or directory (mirrors the tree).")
@click.option("--in-place", is_flag=True, help="Rewrite the inputs (atomic; <file>.orig backup).")
@click.option("--no-backup", is_flag=True, help="With --in-place: keep no .orig backup.")
@click.option("--force", is_flag=True, help="Overwrite existing outputs / backups.")
@click.option("--diff", "show_diff", is_flag=True, help="Print a unified diff; write nothing.")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if any file would change.")
@click.option("--dry-run", is_flag=True, help="Write nothing; say what would be written.")
@click.option("--stats", "stats_format", type=click.Choice(["text", "json", "csv"]), default=None,
              help="Print statistics (per file and totals).")
@click.option("--fail-on", type=click.Choice(SEVERITIES), default="high", show_default=True,
              help="Exit 1 when a finding is at least this severe.")
@click.option("--verify", "verify_", is_flag=True, help="Compile the translated units with hipcc afterwards.")
@click.option("--offload-arch", default="gfx90a", show_default=True, help="AMD target for --verify.")
@click.option("-q", "--quiet", is_flag=True,
              help="Print only errors (failed files, write errors) and, on exit 1, one line saying why.")
@translation_options
def command(paths: tuple[str, ...], output: str | None, in_place: bool, no_backup: bool, force: bool,
            show_diff: bool, check: bool, dry_run: bool, stats_format: str | None, fail_on: str, verify_: bool,
            offload_arch: str, quiet: bool, **translation: object) -> int:
    """Translate CUDA files or trees to HIP, token-exact; findings go to stderr."""
    from cuda2rocm.translate.api import convert
    from cuda2rocm.translate.runner import WritePolicy

    options = build_options(fail_on=fail_on, **translation)  # type: ignore[arg-type]
    if "-" in paths:
        if len(paths) > 1 or output or in_place:
            raise click.UsageError("'-' (stdin) cannot be combined with other paths, -o or --in-place")
        return _stdin(options, quiet, check)
    _check_usage(paths, output, in_place, show_diff or check or dry_run)
    writes = not (show_diff or check or dry_run)
    policy = WritePolicy(write=writes, force=force, backup=not no_backup, keep_original=show_diff)
    to_stdout = writes and not output and not in_place  # a single file, printed
    if output and output.endswith("/"):
        Path(output).mkdir(parents=True, exist_ok=True)
    if to_stdout:  # only the named file goes to stdout; its local headers are not printed
        options = dataclasses.replace(options, follow_includes=False)
    report = convert(paths, None if to_stdout else output, options, in_place=in_place,
                     policy=WritePolicy(write=False) if to_stdout else policy)
    envelope.publish("convert", later=lambda: _summary(report), project=paths[0])
    _print(report, show_diff, dry_run, to_stdout, quiet, stats_format, check)
    code = report.exit_code(options.fail_on)
    if check and code == 0 and report.changed:
        code = 1
    if quiet and code == 1:
        _quiet_verdict(report.results, options.fail_on, len(report.changed), check)
    if verify_ and code != 2:
        code = max(code, _verify(report, offload_arch, options.jobs))
    return code


def _summary(report: ConvertReport) -> object:
    from cuda2rocm.translate.summary import summarize

    return summarize(report)


def _check_usage(paths: tuple[str, ...], output: str | None, in_place: bool, no_write: bool) -> None:
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        raise click.UsageError(f"no such file or directory: {', '.join(missing)}")
    if output and in_place:
        raise click.UsageError("-o and --in-place are exclusive")
    if no_write or output or in_place:
        return
    if len(paths) > 1 or Path(paths[0]).is_dir():
        raise click.UsageError("give -o DIR or --in-place for several files or a directory "
                               "(or --diff/--check/--dry-run)")


def _stdin(options: Options, quiet: bool, check: bool) -> int:
    data = sys.stdin.buffer.read()
    from cuda2rocm.fsio import encode
    from cuda2rocm.translate import render
    from cuda2rocm.translate.api import convert_source
    from cuda2rocm.translate.io import InputError, decode

    try:
        text = decode(data, options.max_bytes, keep_undecodable=True)
    except InputError as exc:
        click.echo(render.failure_line(Failed("<stdin>", exc.message, exc.line)), err=True)
        return 2
    result = convert_source(text, "<stdin>", options)
    out = result.text if isinstance(result, Translated) else text
    if not check:
        sys.stdout.flush()
        sys.stdout.buffer.write(encode(out))  # bytes that were not UTF-8 go out as they came in
    _echo_diagnostics([result], quiet)
    if isinstance(result, Failed):
        return 2
    code = 1 if check and isinstance(result, Translated) else 0
    code = max(code, 1 if any(f.severity >= options.fail_on for f in getattr(result, "findings", ())) else 0)
    if quiet and code == 1:
        _quiet_verdict([result], options.fail_on, int(isinstance(result, Translated)), check)
    return code


def _quiet_verdict(results: Sequence[FileResult], fail_on: Severity, changed: int, check: bool) -> None:
    """What ``-q`` prints when the exit status is 1: one line counting the findings at or above ``--fail-on``
    (not the findings themselves) and, for ``--check``, how many files would change."""
    n = sum(1 for r in results for f in getattr(r, "findings", ()) if f.severity >= fail_on)
    if n:
        click.echo(f"{n} finding(s) at or above {fail_on} (exit 1); run without -q to see them", err=True)
    if check and changed:
        click.echo(f"{changed} file(s) would change", err=True)


def _echo_diagnostics(results: Sequence[FileResult], quiet: bool) -> None:
    from cuda2rocm.translate import render

    for line in render.diagnostics(results):
        if quiet and ": error: " not in line:
            continue
        click.echo(line, err=True)


def _print(report: ConvertReport, show_diff: bool, dry_run: bool, to_stdout: bool, quiet: bool,
           stats_format: str | None, check: bool = False) -> None:
    from cuda2rocm.translate import render

    for f in report.files:
        r = f.outcome.result
        if to_stdout and not isinstance(r, Failed):
            from cuda2rocm.fsio import encode

            sys.stdout.flush()  # the bytes as they will be written to a file (not-UTF-8 ones kept)
            sys.stdout.buffer.write(encode(r.text) if isinstance(r, Translated) else f.job.source.read_bytes())
        elif show_diff and isinstance(r, Translated):
            click.echo(render.unified_diff(f.original, r.text, f.job.display, r.output), nl=False)
        elif dry_run and f.job.dest is not None and not isinstance(r, Failed):
            click.echo(f"would write {f.job.dest} ({type(r).__name__.lower()})")
        elif (dry_run or check) and isinstance(r, Translated):
            click.echo(f"would change {f.job.display}")
        if f.write_error:
            click.echo(f"{f.job.display}: error: {f.write_error}", err=True)
        if isinstance(r, Skipped) and not quiet:
            click.echo(f"{f.job.display}: skipped: {r.reason}", err=True)
    for p in report.problems:
        click.echo(f"{p.path}: warning: {p.message}", err=True)
    _echo_diagnostics(report.results, quiet)
    if stats_format:
        _print_stats(report, stats_format, err=to_stdout or show_diff)


def _print_stats(report: ConvertReport, fmt: str, err: bool) -> None:
    from cuda2rocm.translate import stats

    files = report.stats
    if fmt == "json":
        text = stats.to_json(files, report.wall_seconds) + "\n"
    elif fmt == "csv":
        text = stats.to_csv(files)
    else:
        text = stats.to_text(files, report.wall_seconds)
    click.echo(text, nl=False, err=err)


def _verify(report: ConvertReport, arch: str, jobs: int) -> int:
    from cuda2rocm.cli.verify import print_outcomes
    from cuda2rocm.translate.verify import HipccNotFound, verify

    try:
        outcomes = verify(report.files, arch=arch, jobs=jobs)
    except HipccNotFound as exc:
        click.echo(f"error: {exc}", err=True)
        return 2
    return print_outcomes(outcomes)
