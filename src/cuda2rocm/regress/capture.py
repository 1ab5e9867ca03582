"""Record layer outputs, final outputs, the loss and gradients of a PyTorch model to a capture directory.

A capture directory holds ``tensors.safetensors`` and ``manifest.json`` (tensor order = execution
order, shapes, dtypes, seed, inputs hash, environment fingerprint). The same code runs on CUDA and
ROCm builds of PyTorch (both expose ``torch.cuda``) and on the CPU.
"""

from __future__ import annotations

import datetime as _dt
import fnmatch
import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cuda2rocm.regress.determinism import deterministic
from cuda2rocm.regress.errors import RegressInputError
from cuda2rocm.regress.fingerprint import fingerprint
from cuda2rocm.regress.store import write_capture
from cuda2rocm.regress.torchio import flatten
from cuda2rocm.results.regress import Entry, Manifest


@dataclass(frozen=True)
class CaptureOptions:
    device: str = "cpu"
    dtype: str = ""  # "", "float32", "bfloat16", "float16", "float64": cast model and float inputs
    seed: int = 0
    include: tuple[str, ...] = ()  # module-name globs; empty = every leaf module
    exclude: tuple[str, ...] = ()
    grads: tuple[str, ...] = ()  # parameter-name globs for gradients; empty = all parameters
    train_step: bool = False  # also run backward: record loss and parameter gradients
    train_mode: bool = False  # model.train() (dropout draws random numbers: not comparable across devices)
    tf32: bool = False
    perturb: Mapping[str, float] = field(default_factory=dict)  # module name -> noise scale (x its std)


@dataclass(frozen=True)
class Captured:
    manifest: Manifest
    tensors: dict[str, Any]  # name -> CPU torch tensor, in manifest order


LossFn = Callable[[Any], Any]


def capture(model: Any, inputs: Any, options: CaptureOptions, loss_fn: LossFn | None = None,
            target: str = "") -> Captured:
    """Run one forward (and with ``train_step`` one backward) pass and return what was recorded."""
    import torch

    _check_perturb(model, options)
    inputs_hash = hash_inputs(inputs)
    with deterministic(options.seed, tf32=options.tf32):
        model = _prepare_model(model, options)
        moved = prepare_inputs(inputs, options)
        recorder = _Recorder(model, options)
        try:
            with torch.set_grad_enabled(options.train_step):
                out = call_model(model, moved)
                tensors = recorder.finish(out, loss_fn if options.train_step else None, model)
        finally:
            recorder.remove()
    manifest = Manifest(
        entries=tuple(Entry(n, _dtype_name(t), tuple(t.shape), *_kind(n)) for n, t in tensors.items()),
        seed=options.seed, inputs_sha256=inputs_hash, device=options.device, dtype=options.dtype or "native",
        deterministic=True, tf32=options.tf32, target=target,
        created=_dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        fingerprint=fingerprint(options.device),
        extra={"perturb": dict(options.perturb)} if options.perturb else {},
    )
    return Captured(manifest, tensors)


def capture_to(out_dir: str | Path, model: Any, inputs: Any, options: CaptureOptions,
               loss_fn: LossFn | None = None, target: str = "", *, force: bool = False) -> Captured:
    captured = capture(model, inputs, options, loss_fn, target)
    write_capture(Path(out_dir), captured.manifest, captured.tensors, force=force)
    return captured


def _check_perturb(model: Any, options: CaptureOptions) -> None:
    names = {n for n, _ in model.named_modules()}
    unknown = sorted(set(options.perturb) - names)
    if unknown:
        raise RegressInputError("--perturb", f"no module named {unknown[0]!r} in the model")


def _prepare_model(model: Any, options: CaptureOptions) -> Any:
    import torch

    model = model.to(options.device)
    if options.dtype:
        model = model.to(getattr(torch, options.dtype))
    model.train(options.train_mode)
    model.zero_grad(set_to_none=True)
    return model


def prepare_inputs(inputs: Any, options: CaptureOptions) -> Any:
    import torch

    def move(x: Any) -> Any:
        if isinstance(x, torch.Tensor):
            x = x.to(options.device)
            return x.to(getattr(torch, options.dtype)) if options.dtype and x.is_floating_point() else x
        if isinstance(x, dict):
            return {k: move(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return type(x)(move(v) for v in x)
        return x

    return move(inputs)


def call_model(model: Any, inputs: Any) -> Any:
    if isinstance(inputs, dict):
        return model(**inputs)
    if isinstance(inputs, tuple):
        return model(*inputs)
    return model(inputs)


def hash_inputs(inputs: Any) -> str:
    """sha256 over every input tensor's name, dtype, shape and bytes (as given, before any cast)."""
    import torch

    h = hashlib.sha256()
    for name, t in flatten(inputs, "inputs"):
        cpu = t.detach().to("cpu").contiguous()
        h.update(f"{name}|{cpu.dtype}|{list(cpu.shape)}|".encode())
        h.update(cpu.reshape(-1).view(torch.uint8).numpy().tobytes())
    return h.hexdigest()


def _dtype_name(t: Any) -> str:
    from cuda2rocm.regress.dtypes import canonical

    return canonical(str(t.dtype))


def _kind(name: str) -> tuple[str, str]:
    if name.startswith("act/"):
        return "activation", name[4:].split("#")[0]
    if name.startswith("grad/"):
        return "grad", name[5:].rsplit(".", 1)[0]
    return ("loss", "") if name == "loss" else ("output", "")


class _Recorder:
    """Forward hooks on the selected modules; keeps outputs in call order, injects perturbations."""

    def __init__(self, model: Any, options: CaptureOptions) -> None:
        self.options = options
        self.tensors: dict[str, Any] = {}
        self.calls: dict[str, int] = {}
        self.handles = [
            module.register_forward_hook(self._hook(name))
            for name, module in model.named_modules()
            if name and (self._selected(name, module) or name in options.perturb)
        ]

    def _selected(self, name: str, module: Any) -> bool:
        opts = self.options
        if opts.include:
            chosen = any(fnmatch.fnmatchcase(name, p) for p in opts.include)
        else:
            chosen = next(iter(module.children()), None) is None
        return chosen and not any(fnmatch.fnmatchcase(name, p) for p in opts.exclude)

    def _hook(self, name: str) -> Callable[..., Any]:
        def hook(module: Any, args: Any, output: Any) -> Any:
            if name in self.options.perturb:
                output = _perturbed(output, self.options.perturb[name], self.options.seed)
            if self._selected(name, module):
                self._record(name, output)
            return output if name in self.options.perturb else None

        return hook

    def _record(self, name: str, output: Any) -> None:
        call = self.calls.get(name, 0)
        self.calls[name] = call + 1
        key = f"act/{name}" + (f"#{call}" if call else "")
        for suffix, t in flatten(output):
            self.tensors[key + (f".{suffix}" if suffix else "")] = _keep(t)

    def finish(self, out: Any, loss_fn: LossFn | None, model: Any) -> dict[str, Any]:
        for suffix, t in flatten(out):
            self.tensors["output" + (f".{suffix}" if suffix else "")] = _keep(t)
        if loss_fn is not None or self.options.train_step:
            loss = (loss_fn or default_loss)(out)
            loss.backward()
            # recorded in the capture's dtype: its precision is that of the outputs it came from
            self.tensors["loss"] = _keep(loss.to(_out_dtype(out, loss)))
            for name, p in model.named_parameters():
                if p.grad is not None and self._grad_selected(name):
                    self.tensors[f"grad/{name}"] = _keep(p.grad)
        return self.tensors

    def _grad_selected(self, name: str) -> bool:
        return not self.options.grads or any(fnmatch.fnmatchcase(name, p) for p in self.options.grads)

    def remove(self) -> None:
        for h in self.handles:
            h.remove()


def _out_dtype(out: Any, loss: Any) -> Any:
    floats = [t.dtype for _, t in flatten(out) if t.is_floating_point()]
    return floats[0] if floats else loss.dtype


def default_loss(out: Any) -> Any:
    """Mean of squares of every floating output tensor, in float32 (documented surrogate loss)."""
    parts = [t.float().pow(2).mean() for _, t in flatten(out) if t.is_floating_point()]
    if not parts:
        raise RegressInputError("--train-step", "the model returned no floating-point tensor to build a loss from")
    return sum(parts[1:], parts[0])


def _keep(t: Any) -> Any:
    return t.detach().to("cpu").clone().contiguous()


def _perturbed(output: Any, scale: float, seed: int) -> Any:
    """Add ``scale`` x std(output) Gaussian noise from a CPU generator: the same noise on every device."""
    import torch

    if not isinstance(output, torch.Tensor) or not output.is_floating_point():
        return output
    gen = torch.Generator().manual_seed(seed + 7919)
    noise = torch.randn(output.shape, generator=gen, dtype=torch.float32).to(output.device)
    std = output.detach().float().std() if output.numel() > 1 else output.detach().float().abs()
    return (output.float() + scale * std * noise).to(output.dtype)
