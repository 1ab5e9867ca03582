"""``cuda2rocm compare BASE CAND``: tensors, training curves or scalar metrics under tolerances."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console

from cuda2rocm import envelope, report
from cuda2rocm.regress.errors import RegressInputError

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
    envelope.publish("compare", outcome)
    envelope.attach("baseline", base)
    envelope.attach("candidate", cand)
    console.print(report.render(outcome, "rich", show_all=show_all))
    return 0 if outcome.passed else 1
