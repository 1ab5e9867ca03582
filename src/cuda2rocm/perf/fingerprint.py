"""The environment fingerprint recorded with every result, so a comparison shows what differed.

Uses ``cuda2rocm.envinfo.collect()`` (GPUs, drivers, compilers, libraries; its torch probe, a child
process, is skipped: the torch facts come from this process instead) when it is importable; otherwise a
minimal fingerprint from the standard library and torch.
"""

from __future__ import annotations

import datetime as _dt
import os
import platform
import socket
from functools import lru_cache
from typing import Any

from cuda2rocm import __version__
from cuda2rocm.envinfo.diff import flatten


@lru_cache(maxsize=1)
def _from_envinfo() -> dict[str, Any] | None:
    """Probed once per process (the probes run tools); callers get a copy."""
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
    cached = _from_envinfo()
    env = dict(cached) if cached is not None else None
    source = "cuda2rocm.envinfo" if env is not None else "cuda2rocm.perf.fingerprint.minimal"
    return {
        **(env if env is not None else minimal()),
        "fingerprint_source": source,
        "tool_version": __version__,
        "recorded_at": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }


_VOLATILE = ("recorded_at", "collected_at", "host", "notes")


def differences(a: dict[str, Any], b: dict[str, Any], ignore: tuple[str, ...] = _VOLATILE) -> list[str]:
    """'key: a -> b' for every (dotted, nested) key that differs between baseline and candidate."""
    fa, fb = flatten(a), flatten(b)  # the same dotted-key view `cuda2rocm env diff` uses
    keys = sorted(k for k in set(fa) | set(fb) if k.split(".")[0] not in ignore)
    return [f"{k}: {fa.get(k)!r} -> {fb.get(k)!r}" for k in keys if fa.get(k) != fb.get(k)]
