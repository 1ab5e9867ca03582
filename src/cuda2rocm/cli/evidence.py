"""``cuda2rocm evidence import FILE|DIR...``: bring results made elsewhere into the workspace's records."""

from __future__ import annotations

from pathlib import Path

import click


@click.group("evidence")
def command() -> None:
    """Evidence made on other machines (the CUDA baseline, the ROCm run) for this workspace."""


@command.command("import")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("-w", "--workspace", "where", type=click.Path(file_okay=False, path_type=Path),
              help="The workspace (default: the one around the current directory).")
def import_command(paths: tuple[Path, ...], where: Path | None) -> int:
    """Copy result envelopes (written with --record), and raw results of known kinds (env fingerprint JSON, comm
    JSONL, capture folders, smoke reports; folders and .tar.gz archives of them), into the workspace's records,
    each marked with the machine it came from. Importing the same content twice stores it once. A file that is
    not valid is reported and the others are still imported (exit 2). See docs/workspace.md."""
    from cuda2rocm.workspace.evidence import import_paths
    from cuda2rocm.workspace.store import find

    ws = find(where or Path("."))
    if ws is None:
        raise click.UsageError(f"{(where or Path('.')).resolve()} is not inside a workspace (run `cuda2rocm init`)")
    results = import_paths(ws, list(paths))
    counts: dict[str, int] = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
        if r.status == "failed":
            click.echo(f"error: {r.message}", err=True)
        elif r.status in ("imported", "already"):
            click.echo(f"{r.status}: {r.source} ({r.kind}) -> {Path(r.record).name}")
    summary = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
    click.echo(f"evidence import into {ws}: {summary or 'nothing found'}", err=True)
    return 2 if counts.get("failed") else 0
