"""Capture a target named on the command line (``module:factory`` or ``script.py[:factory]``)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from cuda2rocm.regress.capture import Captured, CaptureOptions, capture
from cuda2rocm.regress.determinism import seed_everything
from cuda2rocm.regress.errors import RegressInputError
from cuda2rocm.regress.sources import open_source
from cuda2rocm.regress.store import write_capture
from cuda2rocm.regress.target import Target, build, load_factory
from cuda2rocm.regress.torchio import to_torch


@dataclass(frozen=True)
class InputSpec:
    file: str = ""  # tensors to feed: one tensor -> model(x), several -> model(*tensors) in file order
    shape: tuple[int, ...] = ()  # or random normal inputs of this shape (CPU generator: same on every device)


@dataclass(frozen=True)
class ReproResult:
    identical: bool
    differing: tuple[str, ...]


def parse_shape(text: str) -> tuple[int, ...]:
    try:
        shape = tuple(int(x) for x in text.lower().replace(",", "x").split("x") if x.strip())
    except ValueError:
        raise RegressInputError("--input-shape", f"want e.g. 2x3x32x32, got {text!r}") from None
    if not shape or any(n < 0 for n in shape):
        raise RegressInputError("--input-shape", f"want e.g. 2x3x32x32, got {text!r}")
    return shape


def check_device(device: str) -> None:
    """Refuse a device this torch cannot use, before any model code runs."""
    import torch

    try:
        dev = torch.device(device)
    except RuntimeError as exc:
        raise RegressInputError("--device", str(exc)) from None
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise RegressInputError("--device", f"{device}: no CUDA/ROCm GPU is available to this torch "
                                f"({torch.__version__}); use --device cpu")
    if dev.type == "cuda" and dev.index is not None and dev.index >= torch.cuda.device_count():
        raise RegressInputError("--device", f"{device}: only {torch.cuda.device_count()} GPU(s) visible")


def load_target(spec: str, inputs: InputSpec, seed: int) -> Target:
    factory = load_factory(spec)
    seed_everything(seed)
    target = build(factory, spec)
    if inputs.file or inputs.shape:
        target = replace(target, inputs=_inputs(inputs, seed))
    if target.inputs is None:
        raise RegressInputError(spec, "the factory returned no inputs: pass --inputs FILE or --input-shape")
    return target


def _inputs(spec: InputSpec, seed: int) -> Any:
    import torch

    if spec.shape:
        return torch.randn(spec.shape, generator=torch.Generator().manual_seed(seed))
    source = open_source(spec.file)
    tensors = tuple(to_torch(source.load(e.name), e.dtype, e.shape) for e in source.entries)
    return tensors[0] if len(tensors) == 1 else tensors


def capture_target(spec: str, out: Path, options: CaptureOptions, inputs: InputSpec = InputSpec(),
                   *, force: bool = False) -> Captured:
    if out.exists() and not force:
        raise RegressInputError(str(out), "already exists (use --force to replace it; the old one is kept as .bak)")
    check_device(options.device)
    target = load_target(spec, inputs, options.seed)
    captured = capture(target.model, target.inputs, options, target.loss_fn, spec)
    write_capture(out, captured.manifest, captured.tensors, force=force)
    return captured


def repro_check(spec: str, options: CaptureOptions, inputs: InputSpec = InputSpec()) -> ReproResult:
    """Build and capture the target twice with the same seed; every tensor must match bit for bit."""
    check_device(options.device)
    runs = []
    for _ in range(2):
        target = load_target(spec, inputs, options.seed)
        runs.append(capture(target.model, target.inputs, options, target.loss_fn, spec).tensors)
    first, second = runs
    names = list(dict.fromkeys([*first, *second]))
    differing = tuple(n for n in names if n not in first or n not in second or not _same(first[n], second[n]))
    return ReproResult(not differing, differing)


def _same(a: Any, b: Any) -> bool:
    import torch

    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    return bool(torch.equal(a.reshape(-1).view(torch.uint8), b.reshape(-1).view(torch.uint8)))
