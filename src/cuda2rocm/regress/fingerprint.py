"""Environment fingerprint stored in every capture manifest (what ran where, so a diff explains itself)."""

from __future__ import annotations

import platform
from typing import Any


def fingerprint(device: str = "cpu") -> dict[str, Any]:
    """Torch/CUDA/HIP versions and the device name; plus ``cuda2rocm.envinfo``'s view when it has one."""
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
    envinfo = _envinfo()
    if envinfo:
        out["envinfo"] = envinfo
    return out


def _device_name(device: str) -> str:
    import torch

    if device.startswith("cuda") and torch.cuda.is_available():
        return str(torch.cuda.get_device_name(torch.device(device)))
    return platform.processor() or platform.machine()


def _envinfo() -> dict[str, Any] | None:
    """Use the envinfo package's fingerprint when it offers one (it may not exist yet)."""
    try:
        import cuda2rocm.envinfo as envinfo
    except ImportError:
        return None
    func = getattr(envinfo, "fingerprint", None) or getattr(envinfo, "collect", None)
    if not callable(func):
        return None
    try:
        value = func()
    except Exception as exc:  # a fingerprint must never stop a capture
        return {"error": f"{type(exc).__name__}: {exc}"}
    value = value.to_dict() if hasattr(value, "to_dict") else value
    return dict(value) if isinstance(value, dict) else None
