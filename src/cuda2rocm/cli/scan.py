"""``cuda2rocm scan [PATH]``: inventory and migration assessment (static; never runs the scanned code).

Exit codes: 0 clean (or nothing at/above ``--fail-on``), 1 findings at/above ``--fail-on``, 2 usage or
input errors (missing path, bad config, refusing to overwrite ``-o FILE`` without ``--force``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from cuda2rocm import envelope
from cuda2rocm.fsio import write_text_atomic
from cuda2rocm.model import Severity

FORMATS = ("text", "json", "sarif", "markdown", "html")
SEVERITIES = ("info", "low", "medium", "high", "critical", "none")
#: the text report lists this many findings (the most severe first) unless --all; the rest are counted per rule
TEXT_FINDINGS_LIMIT = 500


@click.command("scan")
@click.argument("path", required=False, default=".", type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option("-o", "--output", type=click.Path(path_type=Path), help="Write the report here instead of stdout.")
@click.option("--force", is_flag=True, help="Overwrite an existing --output file.")
@click.option("--fail-on", type=click.Choice(SEVERITIES), default="none", show_default=True,
              help="Exit 1 when a finding has this severity or higher.")
@click.option("--target-gpu", default=None, help="Target AMD GPU (default: config, else MI300X).")
@click.option("--jobs", "-j", type=click.IntRange(0, 256), default=0, show_default=True,
              help="Worker processes; 0: one per CPU (up to 8) when the files add up to 4 MiB or more.")
@click.option("--config", "config_file", type=click.Path(path_type=Path), help="Config file (TOML).")
@click.option("--exclude", multiple=True, help="Gitignore-style glob to skip (repeatable).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--all", "show_all", is_flag=True,
              help="Text format: list every finding (by default a scan with more than "
                   f"{TEXT_FINDINGS_LIMIT} lists the most severe {TEXT_FINDINGS_LIMIT} and counts per rule).")
def command(path: Path, fmt: str, output: Path | None, force: bool, fail_on: str, target_gpu: str | None,
            jobs: int, config_file: Path | None, exclude: tuple[str, ...], quiet: bool, show_all: bool) -> int:
    """Inventory and migration assessment of PATH (default: the current directory)."""
    from cuda2rocm.scan.api import ConfigError, ScanInputError, scan

    if output is not None and output.exists() and not force:
        click.echo(f"error: {output} exists; pass --force to overwrite it", err=True)
        return 2
    try:
        with _progress(quiet) as progress:
            result = scan(path, target_gpu=target_gpu, config=config_file, jobs=jobs, progress=progress,
                          exclude=exclude)
    except (ScanInputError, ConfigError) as exc:
        click.echo(f"error: {exc}", err=True)
        return 2
    envelope.publish("scan", result, project=path)
    _emit(_render(result, fmt, output is None, jobs, show_all), output)
    threshold = None if fail_on == "none" else Severity.parse(fail_on)
    return 1 if threshold is not None and any(f.severity >= threshold for f in result.findings) else 0


def _render(result: object, fmt: str, to_terminal: bool, jobs: int, show_all: bool = False) -> str:
    """The report; a large text report's findings tables are rendered by ``--jobs`` workers (0: one per CPU,
    up to 8) as the scan was."""
    from cuda2rocm.batch import AUTO_MAX_JOBS, cpu_count
    from cuda2rocm.report import render

    color = to_terminal and fmt == "text" and sys.stdout.isatty()
    return render(result, fmt, color=color, jobs=jobs or min(cpu_count(), AUTO_MAX_JOBS),
                  limit=None if show_all else TEXT_FINDINGS_LIMIT)


def _emit(text: str, output: Path | None) -> None:
    if output is None:
        click.echo(text, nl=not text.endswith("\n"))
        return
    write_text_atomic(output, text)
    click.echo(f"wrote {output}", err=True)


@contextmanager
def _progress(quiet: bool) -> Iterator[Callable[[int, int], None] | None]:
    """A rich progress bar on stderr for interactive runs; ``None`` (no callback) otherwise."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    with Progress("scanning", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("scan", total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update
