"""Software side of the fingerprint: OS, kernel, Python, compilers, frameworks, NCCL/RCCL, env vars, container."""

from __future__ import annotations

import importlib.metadata as md
import json
import os
import platform
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from cuda2rocm.envinfo.probe import run_tool

COMPILERS = {"nvcc": ["nvcc", "--version"], "hipcc": ["hipcc", "--version"], "gcc": ["gcc", "--version"],
             "clang": ["clang", "--version"]}
ENV_PREFIXES = ("CUDA_", "NCCL_", "RCCL_", "HIP_", "HSA_", "ROCR_", "ROCM_", "PYTORCH_", "TORCH_", "NVIDIA_",
                "GPU_DEVICE_ORDINAL", "HIP_PLATFORM", "OMP_NUM_THREADS", "LD_LIBRARY_PATH")
SECRET_WORDS = ("TOKEN", "SECRET", "PASSWORD", "KEY", "CREDENTIAL")
DISTRIBUTIONS = {"tensorflow": ("tensorflow", "tensorflow-rocm", "tensorflow-gpu"),
                 "jax": ("jax",), "jaxlib": ("jaxlib",),
                 "onnxruntime": ("onnxruntime-gpu", "onnxruntime", "onnxruntime-rocm"),
                 "triton": ("triton", "pytorch-triton-rocm"),
                 "nccl": ("nvidia-nccl-cu13", "nvidia-nccl-cu12", "nvidia-nccl-cu11"),
                 "cudnn": ("nvidia-cudnn-cu13", "nvidia-cudnn-cu12", "nvidia-cudnn-cu11")}


def os_release(path: Path = Path("/etc/os-release")) -> dict[str, str]:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {"name": platform.system()}
    fields = dict(re.findall(r'^(\w+)="?([^"\n]*)"?$', text, re.M))
    return {"name": fields.get("PRETTY_NAME", fields.get("NAME", "")), "id": fields.get("ID", ""),
            "version": fields.get("VERSION_ID", "")}


def compiler_version(text: str) -> str:
    """First version-looking token of a ``--version`` banner (``release 13.0`` for nvcc, ``HIP version: 5.2``)."""
    for pattern in (r"HIP version:\s*([\d.]+\S*)", r"release (\d+\.\d+)", r"version (\d+\.\d+(?:\.\d+)?)",
                    r"\)\s+(\d+\.\d+\.\d+)", r"(\d+\.\d+\.\d+)"):
        if m := re.search(pattern, text):
            return m.group(1)
    return ""


def compilers(timeout: float) -> tuple[dict[str, Any], list[str]]:
    found: dict[str, Any] = {}
    notes: list[str] = []
    for name, argv in COMPILERS.items():
        env_note = run_tool(argv, timeout)
        if env_note.ok:
            found[name] = {"version": compiler_version(env_note.stdout), "banner": env_note.stdout.strip()[:400]}
        else:
            notes.append(env_note.note)
    return found, notes


def distributions() -> dict[str, str]:
    out = {}
    for label, names in DISTRIBUTIONS.items():
        for dist in names:
            try:
                out[label] = f"{md.version(dist)} ({dist})"
                break
            except md.PackageNotFoundError:
                continue
    return out


def key_env(environ: dict[str, str] | None = None) -> dict[str, str]:
    env = os.environ if environ is None else environ
    return {k: ("<redacted>" if any(w in k for w in SECRET_WORDS) else v) for k, v in sorted(env.items())
            if k.startswith(ENV_PREFIXES)}


def container(root: Path = Path("/"), environ: dict[str, str] | None = None) -> dict[str, Any]:
    env = os.environ if environ is None else environ
    evidence = [p for p in (".dockerenv", "run/.containerenv") if (root / p).exists()]
    try:
        cgroup = (root / "proc/1/cgroup").read_text(encoding="utf-8", errors="replace")
    except OSError:
        cgroup = ""
    evidence += [w for w in ("docker", "kubepods", "containerd", "libpod") if w in cgroup]
    evidence += ["KUBERNETES_SERVICE_HOST"] if "KUBERNETES_SERVICE_HOST" in env else []
    return {"detected": bool(evidence), "evidence": evidence}


_TORCH_PROBE = r"""
import json, torch
d = {"version": torch.__version__, "cuda": torch.version.cuda, "hip": getattr(torch.version, "hip", None),
     "cudnn": None, "nccl": None, "available": torch.cuda.is_available(), "devices": []}
try:
    d["cudnn"] = str(torch.backends.cudnn.version()) if torch.backends.cudnn.is_available() else None
except Exception as e:
    d["cudnn_error"] = str(e)
try:
    v = torch.cuda.nccl.version()
    d["nccl"] = ".".join(map(str, v)) if isinstance(v, tuple) else str(v)
except Exception as e:
    d["nccl_error"] = str(e)
for i in range(torch.cuda.device_count() if d["available"] else 0):
    p = torch.cuda.get_device_properties(i)
    d["devices"].append({"name": p.name, "memory_mib": p.total_memory // 2**20, "capability": f"{p.major}.{p.minor}",
                         "gcn_arch": getattr(p, "gcnArchName", ""), "multiprocessors": p.multi_processor_count})
print(json.dumps(d))
"""


def torch_build(timeout: float) -> tuple[dict[str, Any], list[str]]:
    """Inspect our own PyTorch in a child process (a broken install cannot take the fingerprint down)."""
    try:
        proc = subprocess.run([sys.executable, "-c", _TORCH_PROBE], capture_output=True, text=True,
                              timeout=max(timeout, 60.0), check=False)
    except subprocess.TimeoutExpired:
        return {}, ["torch: import timed out"]
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["failed"])[-1]
        return {}, [f"torch: {last}"]
    try:
        return tidy_torch(dict(json.loads(proc.stdout.strip().splitlines()[-1]))), []
    except (json.JSONDecodeError, IndexError):
        return {}, ["torch: unreadable probe output"]


def tidy_torch(d: dict[str, Any]) -> dict[str, Any]:
    """The probe's answer as the fingerprint keeps it. On a CUDA build: cuDNN's version number as a release
    (``91900`` -> ``9.19.0``: major*10000 + minor*100 + patch from cuDNN 9, major*1000 + minor*100 + patch before),
    and no ``gcn_arch`` (torch answers the device's marketing name there, ``NVIDIA H200``, which is no gfx target).
    A ROCm build keeps both as torch gives them (its "cudnn" is MIOpen's number)."""
    if d.get("hip"):
        return d
    raw = str(d.get("cudnn") or "")
    if raw.isdigit():
        n = int(raw)
        major, rest = (n // 10000, n % 10000) if n >= 90000 else (n // 1000, n % 1000)
        d["cudnn"] = f"{major}.{rest // 100}.{rest % 100}"
    for dev in d.get("devices") or ():
        if isinstance(dev, dict) and dev.get("gcn_arch") and not str(dev["gcn_arch"]).startswith("gfx"):
            dev["gcn_arch"] = ""
    return d
