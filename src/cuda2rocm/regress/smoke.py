"""``smoke``: run a model once on the target device under instrumentation and report what went wrong.

Checks: ops that ran off the device (CPU fallbacks), not-implemented errors, the SDPA backend actually
used, which autocast dtypes work, peak memory, and abnormal inputs (NaN input, empty batch, an OOM that
must raise cleanly and leave the model usable).
"""

from __future__ import annotations

import resource
from typing import TYPE_CHECKING, Any

from cuda2rocm.regress.capture import CaptureOptions as _Opts
from cuda2rocm.regress.capture import call_model, prepare_inputs
from cuda2rocm.regress.torchio import flatten
from cuda2rocm.results.regress import Check, SmokeReport

if TYPE_CHECKING:  # instrument imports torch
    from cuda2rocm.regress.instrument import OpRecorder, SdpaCalls


def smoke(model: Any, inputs: Any, device: str = "cpu", *, amp_dtypes: tuple[str, ...] = ("bfloat16", "float16"),
          oom_check: bool = True) -> SmokeReport:
    import torch

    from cuda2rocm.regress.instrument import OpRecorder, SdpaCalls

    model = model.to(device).eval()
    moved = prepare_inputs(inputs, _Opts(device=device))
    dev_type = torch.device(device).type
    _reset_peak(device)
    recorder, sdpa = OpRecorder(dev_type), SdpaCalls()
    forward, reference, missing = _instrumented(model, moved, recorder, sdpa)
    backends = recorder.sdpa_backends() or (["math"] if sdpa.calls else [])
    peak, kind = _peak(device)
    abnormal = [_nan_input(model, moved), _empty_batch(model, moved)]
    if oom_check:
        abnormal.append(_oom(model, moved, device, reference))
    return SmokeReport(device, forward, sum(recorder.ops.values()), tuple(sorted(recorder.off_device.items())),
                       tuple(missing), tuple(backends), tuple(_amp(model, moved, dev_type, d) for d in amp_dtypes),
                       peak, kind, tuple(abnormal))


def _instrumented(model: Any, inputs: Any, recorder: OpRecorder, sdpa: SdpaCalls) -> tuple[Check, Any, list[str]]:
    import torch

    from cuda2rocm.regress.instrument import not_implemented_op

    try:
        with torch.no_grad(), sdpa, recorder:
            out = call_model(model, inputs)
    except Exception as exc:
        op = not_implemented_op(exc)
        return Check("forward", False, _short(exc)), None, [op] if op else []
    return Check("forward", True), out, []


def _run(model: Any, inputs: Any) -> tuple[Any, BaseException | None]:
    import torch

    try:
        with torch.no_grad():
            return call_model(model, inputs), None
    except Exception as exc:
        return None, exc


def _nan_input(model: Any, inputs: Any) -> Check:
    poisoned = _map_first_float(inputs, lambda t: torch_full_like_nan(t))
    if poisoned is None:
        return Check("nan-input", True, "no floating-point input to poison")
    out, exc = _run(model, poisoned)
    if exc is not None:
        return Check("nan-input", False, f"raised {_short(exc)}")
    nonfinite = any(not bool(t.isfinite().all()) for _, t in flatten(out) if t.is_floating_point())
    return Check("nan-input", True, "NaN propagated to the output" if nonfinite else "output stayed finite")


def torch_full_like_nan(t: Any) -> Any:
    import torch

    return torch.full_like(t, float("nan"))


def _empty_batch(model: Any, inputs: Any) -> Check:
    import torch

    def cut(x: Any) -> Any:
        if isinstance(x, torch.Tensor):
            return x[:0] if x.dim() > 0 else x
        if isinstance(x, dict):
            return {k: cut(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return type(x)(cut(v) for v in x)
        return x

    out, exc = _run(model, cut(inputs))
    if exc is not None:
        return Check("empty-batch", False, f"raised {_short(exc)}")
    shapes = [list(t.shape) for _, t in flatten(out)]
    return Check("empty-batch", True, f"output shapes {shapes[:3]}")


def _oom(model: Any, inputs: Any, device: str, reference: Any) -> Check:
    import torch

    try:
        hog = torch.empty(1 << 60, dtype=torch.uint8, device=device)
        del hog
        return Check("oom", False, "a 1 EiB allocation did not fail")
    except torch.OutOfMemoryError:
        kind = "torch.OutOfMemoryError"
    except RuntimeError as exc:
        if "alloc" not in str(exc).lower() and "memory" not in str(exc).lower():
            return Check("oom", False, f"raised an unexpected error: {_short(exc)}")
        kind = "RuntimeError (allocation failed)"
    if device.startswith("cuda"):
        torch.cuda.empty_cache()
    out, err = _run(model, inputs)
    if err is not None:
        return Check("oom", False, f"{kind}, then the model failed: {_short(err)}")
    pairs = zip(flatten(reference), flatten(out), strict=False)
    same = reference is None or all(torch.equal(a, b) for (_, a), (_, b) in pairs)
    return Check("oom", same, f"{kind} raised cleanly; model " + ("recovered" if same else "gave other results"))


def _amp(model: Any, inputs: Any, dev_type: str, dtype: str) -> Check:
    import torch

    try:
        with torch.autocast(dev_type, dtype=getattr(torch, dtype)):
            out, err = _run(model, inputs)
    except RuntimeError as exc:  # autocast itself refuses the dtype on this device
        return Check(f"autocast {dtype}", False, _short(exc))
    if err is not None:
        return Check(f"autocast {dtype}", False, _short(err))
    if any(not bool(t.isfinite().all()) for _, t in flatten(out) if t.is_floating_point()):
        return Check(f"autocast {dtype}", False, "output has NaN/Inf")
    return Check(f"autocast {dtype}", True, "works")


def _map_first_float(inputs: Any, fn: Any) -> Any:
    import torch

    done = [False]

    def walk(x: Any) -> Any:
        if isinstance(x, torch.Tensor) and x.is_floating_point() and not done[0]:
            done[0] = True
            return fn(x)
        if isinstance(x, dict):
            return {k: walk(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return type(x)(walk(v) for v in x)
        return x

    result = walk(inputs)
    return result if done[0] else None


def _reset_peak(device: str) -> None:
    import torch

    if device.startswith("cuda"):
        torch.cuda.reset_peak_memory_stats(torch.device(device))


def _peak(device: str) -> tuple[int, str]:
    import torch

    if device.startswith("cuda"):
        return int(torch.cuda.max_memory_allocated(torch.device(device))), "device allocator peak"
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) * 1024, "process peak RSS"


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:160] if text else ''}"
