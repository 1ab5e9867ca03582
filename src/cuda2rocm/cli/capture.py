"""``cuda2rocm capture TARGET -o DIR``: record layer outputs, loss and gradients of a PyTorch model."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape

from cuda2rocm import envelope
from cuda2rocm.cli._extras import require_torch
from cuda2rocm.regress.capture import CaptureOptions
from cuda2rocm.regress.errors import RegressInputError

_HELP = """Record chosen layer outputs of a PyTorch model (plus final outputs; with --train-step also the
loss and parameter gradients) to DIR/tensors.safetensors + DIR/manifest.json.

TARGET is `package.module:factory` or `path/to/script.py[:factory]` (default factory name: `factory`).
The factory takes no arguments and returns (model, inputs), (model, inputs, loss_fn), a dict with
`model`/`inputs`/`loss_fn`, or just the model (then give --inputs or --input-shape). Seeds are set before
the factory runs; deterministic algorithms are on; TF32 is off unless --tf32.
"""


def _perturb(items: tuple[str, ...]) -> dict[str, float]:
    out = {}
    for item in items:
        name, sep, value = item.rpartition("=")
        try:
            out[name] = float(value) if sep and name else float("nan")
        except ValueError:
            out[name] = float("nan")
        if out[name] != out[name]:
            raise click.BadParameter(f"want MODULE=SCALE, got {item!r}", param_hint="--perturb")
    return out


@click.command(help=_HELP)
@click.argument("target")
@click.option("-o", "--out", type=click.Path(path_type=Path), required=True, help="Capture directory to write.")
@click.option("--device", default="cpu", show_default=True, help="cpu, cuda, cuda:N (ROCm builds use cuda too).")
@click.option("--dtype", type=click.Choice(["", "float32", "float64", "bfloat16", "float16"]), default="",
              help="Cast the model and floating inputs to this dtype (default: as built).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--layers", "include", multiple=True, help="Module-name glob to record (repeatable; default: leaves).")
@click.option("--exclude", multiple=True, help="Module-name glob not to record (repeatable).")
@click.option("--grads", multiple=True, help="Parameter glob whose gradient to record (repeatable; default: all).")
@click.option("--train-step", is_flag=True, help="Also run backward: record the loss and parameter gradients.")
@click.option("--train-mode", is_flag=True, help="Run in model.train() (dropout makes devices incomparable).")
@click.option("--tf32", is_flag=True, help="Allow TF32 matmuls/convolutions (compare with --float32 tf32).")
@click.option("--inputs", "inputs_file", default="", help="Tensors to feed (.safetensors/.npz/.pt/raw+sidecar).")
@click.option("--input-shape", default="", help="Random normal input of this shape, e.g. 2x3x32x32.")
@click.option("--perturb", multiple=True, help="MODULE=SCALE: add SCALE x std noise to that module's output.")
@click.option("--check-repro", is_flag=True, help="Capture twice with the same seed; fail unless bit-identical.")
@click.option("--force", is_flag=True, help="Replace an existing DIR (kept as DIR.bak).")
def command(target: str, out: Path, device: str, dtype: str, seed: int, include: tuple[str, ...],
            exclude: tuple[str, ...], grads: tuple[str, ...], train_step: bool, train_mode: bool, tf32: bool,
            inputs_file: str,
            input_shape: str, perturb: tuple[str, ...], check_repro: bool, force: bool) -> int:
    require_torch("capture")
    from cuda2rocm.regress import run

    console = Console()
    options = CaptureOptions(device=device, dtype=dtype, seed=seed, include=include, exclude=exclude, grads=grads,
                             train_step=train_step, train_mode=train_mode, tf32=tf32, perturb=_perturb(perturb))
    try:
        spec = run.InputSpec(inputs_file, run.parse_shape(input_shape) if input_shape else ())
        if check_repro:
            repro = run.repro_check(target, options, spec)
            if not repro.identical:
                differing = escape(", ".join(repro.differing[:10]))
                console.print(f"[red]C2R-R304[/] not reproducible with seed {seed}: {differing}")
                return 1
            console.print(f"reproducible: two runs with seed {seed} are bit-identical")
        captured = run.capture_target(target, out, options, spec, force=force)
    except RegressInputError as exc:
        click.echo(f"error: {exc}", err=True)
        return 2
    envinfo = captured.manifest.fingerprint.get("envinfo")
    machine = envelope.machine_id(envinfo) if isinstance(envinfo, dict) and envinfo.get("schema") else None
    envelope.publish("capture", captured.manifest, machine=machine)
    envelope.attach("output", out)
    n = len(captured.manifest.entries)
    console.print(f"captured {n} tensors on {device} ({captured.manifest.dtype}) -> {out}", highlight=False)
    return 0
