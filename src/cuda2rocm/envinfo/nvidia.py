"""NVIDIA probes: ``nvidia-smi`` query CSV, its banner (driver / CUDA version) and ``nvidia-smi topo -m``."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from cuda2rocm.envinfo.probe import ToolOutput, run_tool

QUERY_FIELDS = ("index", "name", "uuid", "memory.total", "driver_version", "compute_cap", "pci.bus_id")


def parse_query_csv(text: str) -> list[dict[str, Any]]:
    """Rows of ``nvidia-smi --query-gpu=<QUERY_FIELDS> --format=csv,noheader,nounits``."""
    gpus = []
    for row in csv.reader(io.StringIO(text.strip())):
        if len(row) < len(QUERY_FIELDS):
            continue
        idx, name, uuid, mem, driver, cap, bus = (c.strip() for c in row[: len(QUERY_FIELDS)])
        gpus.append({"index": int(idx) if idx.isdigit() else idx, "vendor": "nvidia", "name": name, "uuid": uuid,
                     "memory_mib": int(float(mem)) if re.fullmatch(r"[\d.]+", mem) else None,
                     "compute_capability": cap, "arch": "sm_" + cap.replace(".", "") if cap else "",
                     "driver": driver, "pci_bus_id": bus})
    return gpus


def parse_banner(text: str) -> dict[str, str]:
    """Driver and CUDA versions from the plain ``nvidia-smi`` banner."""
    out = {}
    if m := re.search(r"Driver Version:\s*([\d.]+)", text):
        out["driver"] = m.group(1)
    if m := re.search(r"CUDA Version:\s*([\d.]+)", text):
        out["cuda"] = m.group(1)
    return out


_ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


def parse_topology(text: str) -> dict[str, Any]:
    """``nvidia-smi topo -m``: the GPU-to-GPU link matrix (``NV18``, ``PIX``, ``SYS``...), keyed ``"GPU0-GPU1"``.

    Terminal escapes are removed first: nvidia-smi 580 underlines the header row (``ESC[4m GPU0 ... ESC[0m``).
    """
    lines = [ln.rstrip() for ln in _ANSI_ESCAPE.sub("", text).splitlines() if ln.strip()]
    if not lines:
        return {}
    header = lines[0].split()
    gpu_cols = [h for h in header if re.fullmatch(r"GPU\d+", h)]
    links: dict[str, str] = {}
    for line in lines[1:]:
        cells = line.split()
        if not cells or not re.fullmatch(r"GPU\d+", cells[0]):
            continue
        for col, value in zip(gpu_cols, cells[1 : 1 + len(gpu_cols)], strict=False):
            if col != cells[0]:
                links[f"{cells[0]}-{col}"] = value
    return {"links": links, "raw": "\n".join(lines)}


def probe(timeout: float) -> tuple[dict[str, Any], list[str]]:
    """Everything nvidia-smi tells us; (facts, notes)."""
    notes: list[str] = []
    query = run_tool(["nvidia-smi", f"--query-gpu={','.join(QUERY_FIELDS)}", "--format=csv,noheader,nounits"], timeout)
    if not query.ok:
        return {}, [query.note]
    facts: dict[str, Any] = {"gpus": parse_query_csv(query.stdout)}
    facts.update(_optional(run_tool(["nvidia-smi"], timeout), parse_banner, notes))
    topo = _optional(run_tool(["nvidia-smi", "topo", "-m"], timeout), parse_topology, notes)
    if topo:
        facts["topology"] = topo
    return facts, notes


def _optional(out: ToolOutput, parse: Any, notes: list[str]) -> dict[str, Any]:
    if not out.ok:
        notes.append(out.note)
        return {}
    result: dict[str, Any] = parse(out.stdout)
    return result


def nvml_links() -> tuple[dict[str, Any], list[str]]:
    """Active NVLink count per GPU through NVML (``nvidia-ml-py``), when that package is installed."""
    try:
        import pynvml
    except ImportError:
        return {}, ["nvidia-ml-py not installed: NVLink counts from nvidia-smi topo only"]
    try:
        pynvml.nvmlInit()
    except Exception as exc:  # NVML raises its own error classes; any failure is only a note
        return {}, [f"NVML: {exc}"]
    try:
        return {"nvml_driver": _text(pynvml.nvmlSystemGetDriverVersion()),
                "nvlinks": [_active_links(pynvml, i) for i in range(pynvml.nvmlDeviceGetCount())]}, []
    finally:
        pynvml.nvmlShutdown()


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _active_links(pynvml: Any, index: int) -> int:
    handle = pynvml.nvmlDeviceGetHandleByIndex(index)
    active = 0
    for link in range(getattr(pynvml, "NVML_NVLINK_MAX_LINKS", 18)):
        try:
            active += int(pynvml.nvmlDeviceGetNvLinkState(handle, link) == pynvml.NVML_FEATURE_ENABLED)
        except Exception:  # links past the device's count raise; stop counting there
            break
    return active
