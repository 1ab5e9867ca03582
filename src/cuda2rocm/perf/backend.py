"""Process-group set-up under torchrun and a check that the backend is really NCCL/RCCL.

``nccl`` on a ROCm build of PyTorch is RCCL (``torch.version.hip`` is set); ``gloo`` runs on CPU and
is labelled as a functional check only: its numbers say nothing about GPU links.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import torch
import torch.distributed as dist


@dataclass(frozen=True)
class BackendInfo:
    requested: str
    backend: str  # what torch.distributed reports
    library: str  # NCCL | RCCL | gloo
    version: str
    device: str  # cuda:0 / cpu
    label: str  # one line for tables and JSON


def choose_backend(requested: str) -> str:
    """``auto`` -> nccl when a GPU is visible (NCCL or RCCL), else gloo."""
    if requested == "rccl":
        return "nccl"
    if requested != "auto":
        return requested
    return "nccl" if torch.cuda.is_available() else "gloo"


def local_device(backend: str) -> torch.device:
    if backend == "gloo":
        return torch.device("cpu")
    index = int(os.environ.get("LOCAL_RANK", "0"))
    torch.cuda.set_device(index)
    return torch.device("cuda", index)


def init(requested: str) -> tuple[torch.device, BackendInfo]:
    """Join the process group torchrun describes (RANK/WORLD_SIZE/MASTER_ADDR in the environment)."""
    backend = choose_backend(requested)
    if backend == "nccl" and not torch.cuda.is_available():
        raise RuntimeError("backend nccl asked for, but torch sees no GPU (use --backend gloo on CPU)")
    device = local_device(backend)
    if not dist.is_initialized():
        kwargs = {"device_id": device} if device.type == "cuda" else {}
        dist.init_process_group(backend=backend, **kwargs)  # type: ignore[arg-type]
    return device, describe(requested, device)


def nccl_version() -> str:
    try:
        version = torch.cuda.nccl.version()
    except (AttributeError, RuntimeError):
        return "unknown"
    return ".".join(str(v) for v in version) if isinstance(version, tuple) else str(version)


def describe(requested: str, device: torch.device) -> BackendInfo:
    backend = str(dist.get_backend())
    if backend == "nccl":
        library = "RCCL" if getattr(torch.version, "hip", None) else "NCCL"
        version = nccl_version()
        label = f"{library} {version} (torch.distributed backend nccl)"
    else:
        library, version = backend, torch.__version__
        label = f"{backend} on CPU - functional check only, NOT NCCL/RCCL; bandwidths are not GPU figures"
    return BackendInfo(requested, backend, library, version, str(device), label)


def verify(info: BackendInfo) -> list[str]:
    """Problems: a GPU backend was asked for but something else is running."""
    if info.requested in ("nccl", "rccl") and info.library not in ("NCCL", "RCCL"):
        return [f"asked for {info.requested} but the process group runs {info.backend}"]
    if info.requested == "rccl" and info.library != "RCCL":
        return ["asked for rccl but this PyTorch is not a ROCm build (the nccl backend is NVIDIA NCCL)"]
    return []
