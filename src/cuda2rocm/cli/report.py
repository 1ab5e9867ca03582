"""``cuda2rocm report [PATH]``: the delivery checklist and its evidence, as HTML, Markdown or JSON."""

from __future__ import annotations

from pathlib import Path

import click

_HELP = """The delivery report of the workspace at PATH (default: the current directory or the nearest parent
holding cuda2rocm.toml or .cuda2rocm/).

Each of the ten checklist items is done, partial, not started or failed, decided only from the records the
workspace holds (docs/report.md lists each item's evidence rule), with links to those records; then the
assessment, translation coverage, compile results, correctness and performance against the CUDA baseline, the
remaining work ordered by risk and, for a dual-platform workspace, what each platform keeps.

Formats: html (one self-contained file with inline SVG charts), markdown, json (docs/schema/report.schema.json).
Record links are relative to the -o file, so the report may be written outside the workspace.
Without --format the suffix of -o decides (.html, .json, else Markdown). Exit code: 0 the report was made,
2 PATH is not a workspace or cannot be read. Records that do not load are listed in the report.
"""

_SUFFIX = {".html": "html", ".htm": "html", ".json": "json"}


def _base(root: Path, output: Path | None) -> str:
    """The path from the report's folder to the workspace root, before every record link ("" when the report
    goes to standard output or into the root itself)."""
    import os

    if output is None:
        return ""
    rel = Path(os.path.relpath(root.resolve(), output.resolve().parent)).as_posix()
    return "" if rel == "." else rel + "/"


@click.command(help=_HELP)
@click.argument("path", type=click.Path(path_type=Path), default=".")
@click.option("--format", "fmt", type=click.Choice(["html", "markdown", "json"]), default=None,
              help="Output format (default: from -o's suffix, else markdown).")
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Write the report to FILE (replaced atomically) instead of standard output.")
def command(path: Path, fmt: str | None, output: Path | None) -> int:
    from cuda2rocm.checklist import build
    from cuda2rocm.fsio import write_text_atomic
    from cuda2rocm.report import render
    from cuda2rocm.workspace.store import find

    if not path.exists():
        click.echo(f"error: {path}: no such file or directory", err=True)
        return 2
    root = find(path)
    if root is None:
        click.echo(f"error: {path} is not inside a cuda2rocm workspace (no cuda2rocm.toml or .cuda2rocm/ here or "
                   "above); make one with `cuda2rocm init`", err=True)
        return 2
    chosen = fmt or (_SUFFIX.get(output.suffix.lower(), "markdown") if output is not None else "markdown")
    try:
        text = render(build(root), chosen, kind="delivery", base=_base(root, output))
    except OSError as exc:
        click.echo(f"error: {root}: cannot read the workspace: {exc.strerror or exc}", err=True)
        return 2
    if output is None:
        click.echo(text, nl=False)
        return 0
    try:
        write_text_atomic(output, text)
    except OSError as exc:
        click.echo(f"error: cannot write {output}: {exc.strerror or exc}", err=True)
        return 2
    click.echo(f"wrote {output} ({chosen})", err=True)
    return 0
