"""``cuda2rocm compat``: supported / unsupported / unknown for a GPU, ROCm, OS and framework combination.

Exit codes: 0 every pair supported, 1 any pair unsupported or unknown (or --from-scan found changes), 2 usage.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from cuda2rocm import envelope, knowledge
from cuda2rocm.knowledge.compat import check
from cuda2rocm.knowledge.scancheck import ScanCompat, ScanFileError, check_scan, load_scan
from cuda2rocm.results.compat import CompatReport, Query

_STYLE = {"supported": "green", "unsupported": "red", "unknown": "yellow"}


def render(console: Console, report: CompatReport) -> None:
    table = Table("pair", "status", "why", "source")
    for v in report.verdicts:
        table.add_row(v.pair, f"[{_STYLE[v.status]}]{v.status}[/]", v.reason, v.source)
    console.print(table)
    for note in report.notes:
        console.print(f"[yellow]note[/]: {note}")
    rec = report.recommendation
    if rec:
        fws = ", ".join(f"{k} {v}" for k, v in rec.frameworks.items())
        console.print(f"[bold]newest supported combination[/]: ROCm {rec.rocm}, {rec.os}, {fws}")
    console.print(f"overall: [{_STYLE[report.status]}]{report.status}[/]")


def render_scan(console: Console, result: ScanCompat) -> None:
    console.print(f"target: ROCm {result.rocm}" + (f" on {result.gpu}" if result.gpu else ""))
    table = Table("item", "where", "status", "why", "action")
    for item in result.items:
        st = item.verdict.status
        table.add_row(item.what, item.where, f"[{_STYLE[st]}]{st}[/]", item.verdict.reason, item.action)
    console.print(table)
    console.print(f"{len(result.must_change)} item(s) must change" if result.must_change else "nothing must change")


def _query(p: dict[str, Any]) -> Query:
    frameworks = {k: p[k] for k in ("pytorch", "tensorflow", "jax", "onnxruntime") if p.get(k)}
    return Query(p["gpu"] or "", p["rocm"] or "", p["os"] or "", frameworks)


def _from_scan(path: Path, p: dict[str, Any], fmt: str) -> int:
    try:
        result = check_scan(load_scan(path), p["rocm"] or "", p["gpu"] or "")
    except ScanFileError as exc:
        click.echo(f"error: {exc}", err=True)
        return 2
    if fmt == "json":
        click.echo(json.dumps(dataclasses.asdict(result) | {"must_change": len(result.must_change)}, indent=2))
    else:
        render_scan(Console(), result)
    return 1 if result.must_change else 0


@click.command("compat")
@click.option("--gpu", help="GPU name or gfx target (MI300X, gfx942, ...).")
@click.option("--rocm", help="ROCm release or series (6.4, 6.4.1).")
@click.option("--os", "os", help="OS, e.g. ubuntu-22.04, rhel-9.4, sles-15-sp6.")
@click.option("--torch", "pytorch", help="PyTorch version (2.6).")
@click.option("--tensorflow", help="TensorFlow version.")
@click.option("--jax", help="JAX version.")
@click.option("--onnxruntime", help="ONNX Runtime version.")
@click.option("--from-scan", "scan", type=click.Path(dir_okay=False, path_type=Path),
              help="ScanResult JSON (cuda2rocm scan --format json): check its frameworks and plugins.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table")
@click.option("--kb-dir", type=click.Path(file_okay=False), envvar="CUDA2ROCM_KB_DIR", help="User overlay directory.")
def command(scan: Path | None, fmt: str, kb_dir: str | None, **p: Any) -> int:
    """Check a GPU / ROCm / OS / framework combination against the compatibility matrix."""
    try:
        knowledge.use_kb_dir(kb_dir)
        if p["gpu"] and not knowledge.is_known_gpu(p["gpu"]):
            raise click.BadParameter(f"unknown GPU {p['gpu']!r}; known: {', '.join(knowledge.known_gpu_names())} "
                                     "(or their gfx targets)", param_hint="--gpu")
        if scan is not None:
            return _from_scan(scan, p, fmt)
        query = _query(p)
        if query.is_empty():
            raise click.UsageError("give at least one of --gpu, --rocm, --os, --torch, ... or --from-scan")
        report = check(query)
    except knowledge.KnowledgeError as exc:
        click.echo(f"error: {exc}", err=True)
        return 2
    envelope.publish("compat", report)
    if fmt == "json":
        click.echo(json.dumps(dataclasses.asdict(report) | {"status": report.status}, indent=2))
    else:
        render(Console(), report)
    return 0 if report.status == "supported" else 1
