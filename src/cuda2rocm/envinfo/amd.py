"""AMD probes: ``rocminfo`` agents (gfx, name, CUs), ``amd-smi``/``rocm-smi`` topology, ROCm version."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from cuda2rocm.envinfo.probe import run_tool


def parse_rocminfo(text: str) -> list[dict[str, Any]]:
    """GPU agents (``Device Type: GPU``) with their gfx name, marketing name and compute units."""
    gpus: list[dict[str, Any]] = []
    for block in re.split(r"\n\*{5,}\s*\nAgent \d+\s*\n\*{5,}", text):
        if not re.search(r"Device Type:\s*GPU", block):
            continue
        field: dict[str, str] = {}
        for k, v in re.findall(r"^\s*([A-Za-z][\w ()/-]*?):\s*(.+)$", block, re.M):
            field.setdefault(k.strip(), v.strip())  # the agent's own Name comes before its ISA names
        gfx = field.get("Name", "")
        cus = field.get("Compute Unit", "")
        gpus.append({"index": len(gpus), "vendor": "amd", "name": field.get("Marketing Name", gfx), "arch": gfx,
                     "compute_units": int(cus) if cus.isdigit() else None, "uuid": field.get("Uuid", "")})
    return gpus


def rocm_version(root: Path = Path("/opt/rocm")) -> str:
    for candidate in (root / ".info" / "version", root / ".info" / "version-dev"):
        try:
            return candidate.read_text(encoding="utf-8").strip()
        except OSError:
            continue
    return ""


def probe(timeout: float) -> tuple[dict[str, Any], list[str]]:
    notes: list[str] = []
    info = run_tool(["rocminfo"], timeout)
    if not info.ok:
        return {}, [info.note]
    facts: dict[str, Any] = {"gpus": parse_rocminfo(info.stdout)}
    for argv in (["amd-smi", "topology"], ["rocm-smi", "--showtopo"]):
        topo = run_tool(argv, timeout)
        if topo.ok:
            facts["topology"] = {"raw": topo.stdout.strip(), "tool": argv[0]}
            break
        notes.append(topo.note)
    driver = run_tool(["amd-smi", "version"], timeout)
    if driver.ok and (m := re.search(r"(?:amdgpu|Driver)\s*version:\s*([\w.\-]+)", driver.stdout, re.I)):
        facts["driver"] = m.group(1)
    return facts, notes
