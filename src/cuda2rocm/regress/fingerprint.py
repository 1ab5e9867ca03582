"""Environment fingerprint stored in every capture manifest (what ran where, so a diff explains itself)."""

from __future__ import annotations

import platform
from typing import Any

from cuda2rocm.envinfo.fingerprint import this_machine


def fingerprint(device: str = "cpu") -> dict[str, Any]:
    """Torch/CUDA/HIP versions and the device name, plus the machine's fingerprint (``cuda2rocm env``'s,
    probed once per process) under ``envinfo``."""
    import numpy
    import torch

    out: dict[str, Any] = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "torch": torch.__version__,
        "numpy": numpy.__version__,
        "cuda": torch.version.cuda,
        "hip": getattr(torch.version, "hip", None),
        "backend": "rocm" if getattr(torch.version, "hip", None) else ("cuda" if torch.version.cuda else "cpu"),
        "device": device,
        "device_name": _device_name(device),
    }
    if torch.backends.cudnn.is_available():
        out["cudnn"] = torch.backends.cudnn.version()
    out["envinfo"] = this_machine()
    return out


def _device_name(device: str) -> str:
    import torch

    if device.startswith("cuda") and torch.cuda.is_available():
        return str(torch.cuda.get_device_name(torch.device(device)))
    return platform.processor() or platform.machine()
