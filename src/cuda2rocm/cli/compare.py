"""``cuda2rocm compare BASE CAND``: tensors, training curves or scalar metrics under tolerances."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cuda2rocm.regress.compare import CompareResult
from cuda2rocm.regress.curves import CurveReport
from cuda2rocm.regress.errors import RegressInputError
from cuda2rocm.regress.metrics import MetricReport

_HELP = """Compare BASE (the reference, e.g. the CUDA run) with CAND (e.g. the ROCm run).

Tensors: capture directories, .safetensors, .npz, .pt (weights-only) or raw dumps with a JSON sidecar;
dtype-aware tolerances (see docs/regress.md), the first diverging tensor in execution order.
Curves: .csv, .jsonl or TensorBoard event files/directories: tolerance band + convergence check.
Metrics (--metrics): JSON objects of name -> number, with thresholds from --config.
Exit code: 0 pass, 1 fail, 2 unreadable input or bad options.
"""


@click.command(help=_HELP)
@click.argument("base")
@click.argument("cand")
@click.option("--config", "config_path", type=click.Path(path_type=Path), help="Tolerance config (YAML/JSON).")
@click.option("--float32", default="", help="Policy class for FP32 tensors, e.g. tf32.")
@click.option("--metrics", "as_metrics", is_flag=True, help="BASE and CAND are scalar-metrics JSON files.")
@click.option("--tag", multiple=True, help="Curve tag/column to compare (repeatable; default: all shared).")
@click.option("--band-rtol", type=float, default=None, help="Curve band relative width (default 0.05).")
@click.option("--higher-is-better", is_flag=True, help="Curves improve upwards (accuracy) not downwards (loss).")
@click.option("--html", "html_path", type=click.Path(path_type=Path), help="Write an HTML report with charts.")
@click.option("--json", "json_path", type=click.Path(path_type=Path), help="Write results as JSON.")
@click.option("--all", "show_all", is_flag=True, help="List every tensor, not only failures and the worst.")
def command(base: str, cand: str, config_path: Path | None, float32: str, as_metrics: bool, tag: tuple[str, ...],
            band_rtol: float | None, higher_is_better: bool, html_path: Path | None, json_path: Path | None,
            show_all: bool) -> int:
    from cuda2rocm.regress import session

    console = Console()
    try:
        outcome = session.run_compare(base, cand, config_path=config_path, float32=float32, metrics=as_metrics,
                                      tags=tag, band_rtol=band_rtol, higher_is_better=higher_is_better)
        if html_path:
            session.write_html(html_path, outcome)
        if json_path:
            session.write_json(json_path, outcome)
    except RegressInputError as exc:
        click.echo(f"error: {exc}", err=True)
        return 2
    _print(console, outcome, show_all)
    return 0 if outcome.passed else 1


def _print(console: Console, outcome: Any, show_all: bool) -> None:
    if outcome.tensors is not None:
        _print_tensors(console, outcome.tensors, show_all)
    for c in outcome.curves:
        _print_curve(console, c)
    if outcome.metrics:
        _print_metrics(console, outcome.metrics)
    console.print("[bold green]PASS[/]" if outcome.passed else "[bold red]FAIL[/]")


def _print_tensors(console: Console, result: CompareResult, show_all: bool) -> None:
    from cuda2rocm.regress.findings import compare_findings

    for w in result.warnings:
        console.print(f"[yellow]warning[/]: {escape(w)}", highlight=False)
    shown = [r for r in result.reports if show_all or not r.ok]
    if shown:
        table = Table("tensor", "status", "policy", "max abs", "rel L2", "cosine", "mismatch", "max ULP")
        for r in shown[:50]:
            s = r.stats
            nums = [f"{s.max_abs:.3g}", f"{s.rel_l2:.3g}", f"{s.cosine:.7f}", f"{s.mismatch_fraction:.3%}",
                    "" if s.max_ulp is None else f"{s.max_ulp:.0f}"] if s else [""] * 5
            table.add_row(r.name, r.status, r.policy, *nums)
        console.print(table)
    counts = ", ".join(f"{n} {k}" for k, n in sorted(result.counts().items()))
    console.print(f"{len(result.reports)} tensors: {counts}", highlight=False)
    first = result.first_divergence
    if first is not None:
        finding = compare_findings(CompareResult(result.base, result.cand, (first,)))[0]
        console.print(f"first divergence: [bold]{escape(first.name)}[/] ({finding.rule}: {escape(finding.message)})",
                      highlight=False)


def _print_curve(console: Console, c: CurveReport) -> None:
    status = "[green]ok[/]" if c.ok else "[red]" + "; ".join(c.reasons) + "[/]"
    console.print(f"curve {c.tag}: {c.points} shared steps, max deviation {c.max_deviation:.4g}, final "
                  f"{c.base_final:.4g} -> {c.cand_final:.4g}: {status}", highlight=False)


def _print_metrics(console: Console, metrics: list[MetricReport]) -> None:
    for m in metrics:
        status = "[green]ok[/]" if m.ok else f"[red]{m.reason}[/]"
        console.print(f"metric {m.name}: {m.base} -> {m.cand}: {status}", highlight=False)
