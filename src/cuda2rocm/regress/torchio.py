"""torch <-> storage arrays, and weights-only loading of .pt files (never unpickles arbitrary objects)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cuda2rocm.regress.dtypes import DTYPES, Array, canonical
from cuda2rocm.regress.errors import RegressInputError


def to_storage(t: Any) -> tuple[str, tuple[int, ...], Array]:
    """A CPU torch tensor as (dtype name, shape, flat storage array)."""
    import torch

    dtype = canonical(str(t.dtype))
    flat = t.detach().to("cpu").contiguous().reshape(-1)
    if dtype in ("BF16", "F8_E4M3", "F8_E5M2"):
        bits = flat.view(torch.int16 if dtype == "BF16" else torch.int8).numpy()
        return dtype, tuple(t.shape), bits.view(DTYPES[dtype].storage)
    return dtype, tuple(t.shape), flat.numpy()


def flatten(obj: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Tensors inside nested dicts/lists/tuples, with dotted names (``out.0``, ``state.fc.weight``)."""
    import torch

    if isinstance(obj, torch.Tensor):
        yield prefix, obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from flatten(v, f"{prefix}.{k}" if prefix else str(k))
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            yield from flatten(v, f"{prefix}.{i}" if prefix else str(i))


def load_pt(p: Path) -> dict[str, tuple[str, tuple[int, ...], Array]]:
    import pickle

    import torch

    try:
        obj = torch.load(p, map_location="cpu", weights_only=True)
    except (pickle.UnpicklingError, RuntimeError, EOFError, OSError, ValueError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise RegressInputError(str(p), f"cannot load with weights_only=True: {first}") from None
    try:
        out = {(name or "tensor"): to_storage(t) for name, t in flatten(obj)}
    except ValueError as exc:
        raise RegressInputError(str(p), str(exc)) from None
    if not out:
        raise RegressInputError(str(p), "no tensors found")
    return out


def to_torch(arr: Any, dtype: str, shape: tuple[int, ...]) -> Any:
    """The inverse of :func:`to_storage`: a CPU tensor from a flat storage array."""
    import numpy as np
    import torch

    flat = torch.from_numpy(np.array(arr, copy=True))
    if dtype == "BF16":
        flat = flat.view(torch.int16).view(torch.bfloat16)
    elif dtype in ("F8_E4M3", "F8_E5M2"):
        flat = flat.view(torch.int8).view(torch.float8_e4m3fn if dtype == "F8_E4M3" else torch.float8_e5m2)
    return flat.reshape(shape)
