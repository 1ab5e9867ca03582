"""Operator-level instrumentation for ``smoke``: which aten ops ran, on which device, which SDPA backend."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_leaves

SDPA_BACKENDS = {
    "_scaled_dot_product_flash_attention": "flash",
    "_scaled_dot_product_flash_attention_for_cpu": "flash-cpu",
    "_scaled_dot_product_efficient_attention": "efficient",
    "_scaled_dot_product_cudnn_attention": "cudnn",
    "_scaled_dot_product_fused_attention_overrideable": "fused-overrideable",
    "_flash_attention_forward": "flash",
    "_efficient_attention_forward": "efficient",
}
_NOT_IMPL = (re.compile(r"Could not run '([\w:.]+)'"), re.compile(r'"(\w+)" not implemented for'),
             re.compile(r"(\w+) not implemented for"))


class OpRecorder(TorchDispatchMode):
    """Counts aten ops; an op that reads or writes a non-scalar tensor off ``device_type`` is a fallback."""

    def __init__(self, device_type: str) -> None:
        super().__init__()
        self.device_type = device_type
        self.ops: Counter[str] = Counter()
        self.off_device: Counter[str] = Counter()

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        out = func(*args, **(kwargs or {}))
        name = str(func.overloadpacket.__name__)
        self.ops[name] += 1
        if any(_off(t, self.device_type) for t in tree_leaves((args, kwargs, out))):
            self.off_device[name] += 1
        return out

    def sdpa_backends(self) -> list[str]:
        return sorted({SDPA_BACKENDS[op] for op in self.ops if op in SDPA_BACKENDS})


def _off(t: Any, device_type: str) -> bool:
    import torch

    return isinstance(t, torch.Tensor) and t.dim() > 0 and t.device.type != device_type


class SdpaCalls(TorchFunctionMode):
    """Counts calls of ``F.scaled_dot_product_attention`` (the math path shows no fused op below)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        if getattr(func, "__name__", "") == "scaled_dot_product_attention":
            self.calls += 1
        return func(*args, **(kwargs or {}))


def not_implemented_op(exc: BaseException) -> str | None:
    """The operator named by a not-implemented error, if the error is one."""
    text = str(exc)
    if not isinstance(exc, NotImplementedError) and "not implemented" not in text.lower():
        return None
    for pattern in _NOT_IMPL:
        m = pattern.search(text)
        if m:
            return m.group(1)
    return text.splitlines()[0][:80] if text else type(exc).__name__
