"""Collect the machine fingerprint: one JSON-able mapping, schema ``cuda2rocm.env/1`` (see docs/env.md)."""

from __future__ import annotations

import copy
import datetime as dt
import functools
import platform
import socket
from typing import Any

from cuda2rocm import __version__
from cuda2rocm.envinfo import amd, nvidia, software
from cuda2rocm.envinfo.probe import DEFAULT_TIMEOUT

SCHEMA = "cuda2rocm.env/1"


def collect(timeout: float = DEFAULT_TIMEOUT, *, with_torch: bool = True) -> dict[str, Any]:
    """Probe this machine. Every probe is optional; what could not be learned is listed under ``notes``."""
    notes: list[str] = []
    fp: dict[str, Any] = {"schema": SCHEMA, "tool_version": __version__,
                          "collected_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
                          "host": socket.gethostname(), "os": software.os_release(), "kernel": platform.release(),
                          "machine": platform.machine(), "python": platform.python_version()}
    fp.update(_gpus(timeout, notes))
    fp["compilers"], more = software.compilers(timeout)
    notes += more
    fp["frameworks"] = _frameworks(timeout, notes, with_torch)
    fp["libraries"] = _libraries(fp)
    fp["env"] = software.key_env()
    fp["container"] = software.container()
    fp["notes"] = notes
    return fp


def this_machine() -> dict[str, Any]:
    """:func:`collect` once per process (its probes run tools), for the records ``bench``, ``comm`` and
    ``capture`` keep with their results; every caller gets its own copy. Never raises: a probe bug must not
    stop a benchmark or a capture, so it becomes ``{"schema": ..., "error": "..."}``."""
    try:
        return copy.deepcopy(_probed_once())
    except Exception as exc:
        return {"schema": SCHEMA, "error": f"{type(exc).__name__}: {exc}"}


@functools.lru_cache(maxsize=1)
def _probed_once() -> dict[str, Any]:
    return collect()


def _gpus(timeout: float, notes: list[str]) -> dict[str, Any]:
    nv, nv_notes = nvidia.probe(timeout)
    am, am_notes = amd.probe(timeout)
    notes += nv_notes + am_notes
    gpus = list(nv.get("gpus", [])) + list(am.get("gpus", []))
    platform_name = "cuda" if nv.get("gpus") else "rocm" if am.get("gpus") else "none"
    out: dict[str, Any] = {"platform": platform_name, "gpus": gpus, "gpu_count": len(gpus),
                           "driver": nv.get("driver") or (gpus[0].get("driver") if nv.get("gpus") else "")
                           or am.get("driver", ""),
                           "cuda": nv.get("cuda", ""), "rocm": amd.rocm_version(),
                           "topology": nv.get("topology") or am.get("topology") or {}}
    if nv.get("gpus"):
        nvml, nvml_notes = nvidia.nvml_links()
        notes += nvml_notes
        out.update(nvml)
    return out


def _frameworks(timeout: float, notes: list[str], with_torch: bool) -> dict[str, Any]:
    frameworks: dict[str, Any] = dict(software.distributions())
    if with_torch:
        torch, more = software.torch_build(timeout)
        notes += more
        if torch:
            frameworks["torch"] = torch
    return frameworks


def _libraries(fp: dict[str, Any]) -> dict[str, str]:
    """NCCL/RCCL and cuDNN/MIOpen versions as PyTorch reports them (it names RCCL 'nccl' on ROCm)."""
    torch = fp["frameworks"].get("torch") or {}
    rocm = bool(torch.get("hip"))
    libs = {("rccl" if rocm else "nccl"): torch.get("nccl") or "",
            ("miopen" if rocm else "cudnn"): torch.get("cudnn") or ""}
    for label in ("nccl", "cudnn"):
        if fp["frameworks"].get(label):
            libs[f"{label}_wheel"] = fp["frameworks"].pop(label)
    return {k: str(v) for k, v in libs.items() if v}
