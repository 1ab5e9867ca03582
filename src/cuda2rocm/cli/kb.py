"""``cuda2rocm kb``: show, list and update the knowledge base."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from cuda2rocm import knowledge
from cuda2rocm.knowledge.overlay import load_update, merge_into_overlay

KINDS = ("gpu", "rocm", "plugin", "library", "env", "image")
LISTS = {"gpus": "gpu", "rocm": "rocm", "plugins": "plugin", "libraries": "library", "env": "env", "images": "image"}


def _find(kind: str, name: str) -> Any:
    finders: dict[str, Callable[[str], Any]] = {
        "gpu": knowledge.get_gpu, "rocm": knowledge.get_release, "plugin": knowledge.get_plugin,
               "library": knowledge.get_library, "env": knowledge.get_env_var,
               "image": lambda n: knowledge.containers().get(n)}
    return finders[kind](name)


def _rows(kind: str) -> dict[str, Any]:
    tables: dict[str, Any] = {"gpu": knowledge.gpus, "rocm": knowledge.rocm_releases, "plugin": knowledge.plugins,
                              "library": knowledge.libraries, "env": knowledge.env_vars,
                              "image": knowledge.containers}
    return dict(tables[kind]())


def _as_dict(record: Any) -> dict[str, Any]:
    data = dataclasses.asdict(record)
    if isinstance(record, knowledge.RocmRelease):
        data["gpus"] = list(record.gpus)
    return data


def _print_record(console: Console, data: dict[str, Any]) -> None:
    table = Table(show_header=False, box=None)
    for key, value in data.items():
        if value in ("", None, (), [], {}):
            continue
        text = json.dumps(value) if isinstance(value, (dict, list, tuple)) else str(value)
        table.add_row(f"[bold]{key}[/]", text)
    console.print(table)


@click.group("kb")
@click.option("--kb-dir", type=click.Path(file_okay=False, path_type=Path), envvar="CUDA2ROCM_KB_DIR",
              help="User overlay directory (default ~/.config/cuda2rocm/kb; env CUDA2ROCM_KB_DIR).")
def kb_command(kb_dir: Path | None) -> None:
    """Show or update the knowledge base (GPUs, ROCm releases, plugins, libraries, env vars, images)."""
    knowledge.use_kb_dir(str(kb_dir) if kb_dir else None)


@kb_command.command("show")
@click.argument("kind", type=click.Choice(KINDS))
@click.argument("name")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table")
def show(kind: str, name: str, fmt: str) -> int:
    """Show one entry: `kb show gpu MI300X`, `kb show rocm 6.4`, `kb show plugin flash-attn`."""
    try:
        record = _find(kind, name)
    except knowledge.KnowledgeError as exc:
        click.echo(f"error: {exc}", err=True)
        return 2
    if record is None:
        click.echo(f"error: unknown {kind} {name!r}; try `cuda2rocm kb list {_plural(kind)}`", err=True)
        return 2
    data = _as_dict(record)
    if fmt == "json":
        click.echo(json.dumps(data, indent=2))
    else:
        _print_record(Console(), data)
    return 0


def _plural(kind: str) -> str:
    return next(k for k, v in LISTS.items() if v == kind)


@kb_command.command("list")
@click.argument("what", type=click.Choice(sorted(LISTS)))
def list_(what: str) -> int:
    """List the keys of one table with a one-line summary."""
    try:
        rows = _rows(LISTS[what])
    except knowledge.KnowledgeError as exc:
        click.echo(f"error: {exc}", err=True)
        return 2
    table = Table("name", "summary", "unverified")
    for key, record in rows.items():
        table.add_row(key, _summary(record), "yes" if record.unverified else "")
    Console().print(table)
    return 0


def _summary(record: Any) -> str:
    if isinstance(record, knowledge.Gpu):
        return f"{record.vendor} {record.architecture} {record.target} wave{record.wavefront_size}"
    if isinstance(record, knowledge.RocmRelease):
        return f"pytorch {', '.join(record.frameworks.get('pytorch', ()))}; {', '.join(record.gfx_targets)}"
    if isinstance(record, knowledge.Plugin):
        return record.rocm_support + (f" -> {record.replacement}" if record.replacement else "")
    if isinstance(record, knowledge.Library):
        return " / ".join(s.name for s in (record.hip, record.rocm) if s)
    if isinstance(record, knowledge.EnvVar):
        return f"{record.status}: {', '.join(record.rocm)}"
    return str(getattr(record, "replaces", ""))


@kb_command.command("update")
@click.option("--from", "source", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="YAML or CSV file with newer facts (each with source and date).")
def update(source: Path) -> int:
    """Validate FILE and merge it into the user overlay (atomic; the previous overlay is kept as .bak)."""
    try:
        data = load_update(source)
        path, count = merge_into_overlay(knowledge.default_kb_dir(), data)
        knowledge.reload()
        knowledge.rocm_releases()  # prove the merged overlay still loads
    except knowledge.KnowledgeError as exc:
        click.echo(f"error: {exc}", err=True)
        return 2
    click.echo(f"merged {count} entr{'y' if count == 1 else 'ies'} from {source} into {path}")
    return 0
