"""``cuda2rocm env``: fingerprint this machine; ``env diff A.json B.json``: what changed between two.

Exit codes: ``env`` 0; ``env diff`` 0 when identical, 1 when anything differs, 2 for unreadable or malformed files.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from cuda2rocm import envelope, report
from cuda2rocm.envinfo.diff import FingerprintError, diff, load
from cuda2rocm.envinfo.fingerprint import collect
from cuda2rocm.envinfo.labels import dockerfile_lines
from cuda2rocm.fsio import write_text_atomic


def write_atomic(path: Path, text: str, force: bool) -> None:
    try:
        write_text_atomic(path, text, force=force)
    except FileExistsError as exc:
        raise click.UsageError(str(exc)) from None


@click.group("env", invoke_without_command=True)
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table")
@click.option("--labels", is_flag=True, help="Print the facts as OCI image LABEL lines for a Dockerfile.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write the JSON here.")
@click.option("--force", is_flag=True, help="Overwrite --output if it exists.")
@click.option("--timeout", type=click.FloatRange(0.1, 600), default=10.0, show_default=True,
              help="Seconds per probe (nvidia-smi, rocminfo, compilers, ...).")
@click.option("--no-torch", is_flag=True, help="Do not inspect the installed PyTorch.")
@click.pass_context
def env_command(ctx: click.Context, fmt: str, labels: bool, output: Path | None, force: bool, timeout: float,
                no_torch: bool) -> int:
    """Fingerprint this machine: GPUs, links, driver, CUDA/ROCm, NCCL/RCCL, frameworks, compilers."""
    if ctx.invoked_subcommand is not None:
        return 0
    fp = collect(timeout, with_torch=not no_torch)
    envelope.publish("env", fp, machine=envelope.machine_id(fp))
    text = json.dumps(fp, indent=2, sort_keys=False) + "\n"
    if output is not None:
        write_atomic(output, text, force)
    if labels:
        click.echo(dockerfile_lines(fp))
    elif fmt == "json":
        click.echo(text, nl=False)
    else:
        Console().print(report.render(fp, "rich", kind="env"))
    return 0


@env_command.command("diff")
@click.argument("before", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("after", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table")
def diff_command(before: Path, after: Path, fmt: str) -> int:
    """What changed from BEFORE to AFTER (e.g. the CUDA baseline to the ROCm target). Exit 1 if anything did."""
    try:
        changes = diff(load(before), load(after))
    except FingerprintError as exc:
        click.echo(f"error: {exc}", err=True)
        return 2
    if fmt == "json":
        click.echo(json.dumps([{"key": c.key, "kind": c.kind, "before": c.before, "after": c.after} for c in changes],
                              indent=2))
    else:
        table = Table("key", "change", str(before), str(after))
        for c in changes:
            table.add_row(c.key, c.kind, _cell(c.before), _cell(c.after))
        Console().print(table if changes else "no differences")
    return 1 if changes else 0


def _cell(value: Any) -> str:
    return "-" if value is None else str(value)[:80]
