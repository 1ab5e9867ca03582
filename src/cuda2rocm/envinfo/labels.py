"""``env --labels``: the fingerprint's key facts as OCI image labels (``LABEL`` lines for a Dockerfile)."""

from __future__ import annotations

import json
from typing import Any

PREFIX = "io.cuda2rocm.env"


def labels(fp: dict[str, Any]) -> dict[str, str]:
    torch = fp.get("frameworks", {}).get("torch") or {}
    gpus = fp.get("gpus") or []
    raw = {
        "platform": fp.get("platform", ""), "os": (fp.get("os") or {}).get("name", ""), "kernel": fp.get("kernel", ""),
        "driver": fp.get("driver", ""), "cuda": fp.get("cuda", ""), "rocm": fp.get("rocm", ""),
        "gpu.count": str(len(gpus)), "gpu.name": gpus[0].get("name", "") if gpus else "",
        "gpu.arch": gpus[0].get("arch", "") if gpus else "", "python": fp.get("python", ""),
        "torch": torch.get("version", ""), "torch.cuda": torch.get("cuda") or "", "torch.hip": torch.get("hip") or "",
    }
    raw.update({f"lib.{k}": v for k, v in (fp.get("libraries") or {}).items()})
    raw.update({f"compiler.{k}": v.get("version", "") for k, v in (fp.get("compilers") or {}).items()})
    return {f"{PREFIX}.{k}": str(v) for k, v in raw.items() if v}


def dockerfile_lines(fp: dict[str, Any]) -> str:
    """One ``LABEL`` instruction per fact; values JSON-quoted so spaces and quotes are safe."""
    return "\n".join(f"LABEL {k}={json.dumps(v)}" for k, v in labels(fp).items())
