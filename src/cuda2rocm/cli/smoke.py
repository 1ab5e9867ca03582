"""``cuda2rocm smoke TARGET``: run a model once on the GPU (or CPU) under instrumentation."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.markup import escape

from cuda2rocm.cli._extras import require_torch
from cuda2rocm.fsio import write_text_atomic
from cuda2rocm.model import Severity
from cuda2rocm.regress.errors import RegressInputError

if TYPE_CHECKING:
    from cuda2rocm.results.regress import SmokeReport


@click.command(help="Run TARGET (same contract as `capture`) once under instrumentation and report CPU "
                    "fallbacks, not-implemented ops, the SDPA backend, working autocast dtypes, peak memory "
                    "and abnormal-input behaviour. Exit 1 when a finding of medium severity or more is found.")
@click.argument("target")
@click.option("--device", default="cuda", show_default=True, help="cuda, cuda:N (also ROCm) or cpu.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--inputs", "inputs_file", default="", help="Tensors to feed (.safetensors/.npz/.pt/raw+sidecar).")
@click.option("--input-shape", default="", help="Random normal input of this shape, e.g. 2x3x32x32.")
@click.option("--no-oom", is_flag=True, help="Skip the out-of-memory check.")
@click.option("--json", "json_path", type=click.Path(path_type=Path), help="Write the report as JSON.")
def command(target: str, device: str, seed: int, inputs_file: str, input_shape: str, no_oom: bool,
            json_path: Path | None) -> int:
    require_torch("smoke")
    from cuda2rocm import envelope
    from cuda2rocm.regress import run, smoke
    from cuda2rocm.regress.findings import smoke_findings

    console = Console()
    try:
        spec = run.InputSpec(inputs_file, run.parse_shape(input_shape) if input_shape else ())
        run.check_device(device)
        built = run.load_target(target, spec, seed)
        report = smoke.smoke(built.model, built.inputs, device, oom_check=not no_oom)
        findings = smoke_findings(report, target)
        if json_path:
            body = {**dataclasses.asdict(report), "findings": [dataclasses.asdict(f) for f in findings]}
            write_text_atomic(json_path, json.dumps(body, indent=1, default=str) + "\n")
    except RegressInputError as exc:
        click.echo(f"error: {exc}", err=True)
        return 2
    envelope.publish("smoke", report)
    _print(console, report)
    for f in findings:
        console.print(f"[yellow]{f.rule}[/] {escape(f'[{f.severity}]')} {escape(f.message)}", highlight=False)
    return 1 if any(f.severity >= Severity.MEDIUM for f in findings) else 0


def _print(console: Console, report: SmokeReport) -> None:
    console.print(f"device {report.device}: forward {'ok' if report.forward.ok else report.forward.detail}, "
                  f"{report.ops} aten ops", highlight=False)
    console.print(f"CPU fallbacks: {', '.join(f'{op} x{n}' for op, n in report.cpu_fallbacks) or 'none'}")
    console.print(f"not implemented: {', '.join(report.not_implemented) or 'none'}")
    console.print(f"SDPA backend: {', '.join(report.sdpa_backends) or 'not used'}")
    console.print(f"peak memory: {report.peak_memory_bytes / 2**20:.1f} MiB ({report.memory_kind})")
    for c in (*report.amp, *report.abnormal):
        console.print(f"{c.name}: {'ok' if c.ok else 'FAILED'} {c.detail}", highlight=False)
