"""The environment fingerprint recorded with every result, so a comparison shows what differed.

Uses ``cuda2rocm.envinfo`` when it offers a ``fingerprint()`` or ``collect()`` function returning a
mapping (or an object with ``to_dict()``); otherwise a minimal fingerprint from the standard library
and torch. Never runs anything slow: no subprocesses here.
"""

from __future__ import annotations

import datetime as _dt
import os
import platform
import socket
from typing import Any

from cuda2rocm import __version__


def _from_envinfo() -> dict[str, Any] | None:
    try:
        import cuda2rocm.envinfo as envinfo
    except ImportError:
        return None
    for name in ("fingerprint", "collect"):
        func = getattr(envinfo, name, None)
        if callable(func):
            try:
                value = func()
            except Exception:
                return None
            as_dict = value.to_dict() if hasattr(value, "to_dict") else value
            return dict(as_dict) if isinstance(as_dict, dict) else None
    return None


def _torch_part() -> dict[str, Any]:
    try:
        import torch
    except ImportError:
        return {"torch": None}
    info: dict[str, Any] = {"torch": torch.__version__, "cuda": torch.version.cuda,
                            "hip": getattr(torch.version, "hip", None)}
    if torch.cuda.is_available():
        info["gpus"] = [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
        info["nccl"] = ".".join(map(str, torch.cuda.nccl.version()))
    else:
        info["gpus"] = []
    return info


def minimal() -> dict[str, Any]:
    return {
        "host": socket.gethostname(),
        "os": platform.platform(),
        "python": platform.python_version(),
        "cpu_count": os.cpu_count(),
        "machine": platform.machine(),
        **_torch_part(),
    }


def fingerprint() -> dict[str, Any]:
    env = _from_envinfo()
    source = "cuda2rocm.envinfo" if env is not None else "cuda2rocm.perf.fingerprint.minimal"
    return {
        **(env if env is not None else minimal()),
        "fingerprint_source": source,
        "tool_version": __version__,
        "recorded_at": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }


def differences(a: dict[str, Any], b: dict[str, Any], ignore: tuple[str, ...] = ("recorded_at",)) -> list[str]:
    """'key: a -> b' for every top-level key that differs (what changed between baseline and candidate)."""
    keys = sorted((set(a) | set(b)) - set(ignore))
    return [f"{k}: {a.get(k)!r} -> {b.get(k)!r}" for k in keys if a.get(k) != b.get(k)]
