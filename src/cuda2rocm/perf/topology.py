"""GPU topology from ``nvidia-smi topo -m`` or ``rocm-smi --showtopo``, and warnings for a job's GPUs.

Parsing is pure (text in, :class:`Topology` out) so it is tested on hand-written samples; reading runs
the tool with a timeout and returns an empty topology when no tool is present.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass, field

_NVLINK = re.compile(r"^NV(\d+)$")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_PCIE_ONLY = {"SYS", "NODE", "PHB", "PXB", "PIX"}


@dataclass(frozen=True)
class Topology:
    tool: str = ""  # nvidia-smi | rocm-smi | "" (none found)
    text: str = ""
    links: dict[tuple[int, int], str] = field(default_factory=dict)  # (gpu, gpu) -> NV18 / XGMI / SYS ...
    numa: dict[int, str] = field(default_factory=dict)  # gpu -> NUMA affinity
    nics: dict[int, dict[str, str]] = field(default_factory=dict)  # gpu -> {NIC0: PIX, ...}

    def link(self, a: int, b: int) -> str:
        return self.links.get((a, b), "")


def _cells(line: str) -> list[str]:
    parts = line.split("\t") if "\t" in line else re.split(r"\s{2,}", line)
    return [p.strip() for p in parts if p.strip()]


def parse_nvidia_smi(text: str) -> Topology:
    """Parse the matrix of ``nvidia-smi topo -m`` (tab separated; GPUn/NICn rows and columns)."""
    lines = [_ANSI.sub("", ln) for ln in text.splitlines() if ln.strip()]
    header_at = next((i for i, ln in enumerate(lines) if re.match(r"^\s+GPU0\b", ln)), None)
    if header_at is None:
        return Topology("nvidia-smi", text)
    header = _cells(lines[header_at])
    links: dict[tuple[int, int], str] = {}
    numa: dict[int, str] = {}
    nics: dict[int, dict[str, str]] = {}
    for line in lines[header_at + 1 :]:
        m = re.match(r"^GPU(\d+)\s", line)
        if not m:
            continue
        gpu, cells = int(m.group(1)), _cells(line)[1:]
        for col, value in zip(header, cells, strict=False):
            if col.startswith("GPU") and col[3:].isdigit():
                links[(gpu, int(col[3:]))] = value
            elif col.startswith("NIC"):
                nics.setdefault(gpu, {})[col] = value
            elif col == "NUMA Affinity":
                numa[gpu] = value
    return Topology("nvidia-smi", text, links, numa, nics)


def parse_rocm_smi(text: str) -> Topology:
    """Parse the 'Link Type between two GPUs' block of ``rocm-smi --showtopo``."""
    links: dict[tuple[int, int], str] = {}
    numa: dict[int, str] = {}
    block = text.split("Link Type between two GPUs", 1)
    body = block[1].splitlines() if len(block) == 2 else []
    columns: list[int] = []
    for line in body:
        cells = line.split()
        if cells and all(re.fullmatch(r"GPU\d+", c) for c in cells):
            columns = [int(c[3:]) for c in cells]
        elif cells and re.fullmatch(r"GPU\d+", cells[0]) and columns:
            for col, value in zip(columns, cells[1:], strict=False):
                links[(int(cells[0][3:]), col)] = "X" if value == "0" and col == int(cells[0][3:]) else value
        elif line.startswith("=") and columns and links:
            break
    for m in re.finditer(r"GPU\[(\d+)\]\s*:\s*\(Topology\) Numa Node:\s*(\S+)", text):
        numa[int(m.group(1))] = m.group(2)
    return Topology("rocm-smi", text, links, numa)


def _run(argv: list[str]) -> str:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout if done.returncode == 0 else ""


def read() -> Topology:
    """The machine's topology from whichever tool is installed (NVIDIA first)."""
    if shutil.which("nvidia-smi"):
        text = _run(["nvidia-smi", "topo", "-m"])
        if text:
            return parse_nvidia_smi(text)
    if shutil.which("rocm-smi"):
        text = _run(["rocm-smi", "--showtopo"])
        if text:
            return parse_rocm_smi(text)
    return Topology()


def warnings(topo: Topology, gpus: list[int]) -> list[str]:
    """Pairs of the job's GPUs without a GPU link, GPUs on several NUMA nodes, GPUs far from every NIC."""
    out = []
    for i, a in enumerate(gpus):
        for b in gpus[i + 1 :]:
            link = topo.link(a, b)
            if link in _PCIE_ONLY:
                out.append(f"GPU{a}-GPU{b} connected via {link} (PCIe/CPU), not NVLink/XGMI: expect low busbw")
    nodes = {topo.numa[g] for g in gpus if topo.numa.get(g, "N/A") not in ("N/A", "")}
    if len(nodes) > 1:
        out.append(f"the job's GPUs span NUMA nodes {sorted(nodes)}: pin each rank to its GPU's NUMA node")
    for g in gpus:
        nic_links = topo.nics.get(g, {})
        if nic_links and all(v in ("SYS", "NODE") for v in nic_links.values()):
            out.append(f"GPU{g} has no NIC on its PCIe switch (best {min(nic_links.values())}): "
                       "multi-node traffic crosses the CPU interconnect; check NCCL_IB_HCA / NIC placement")
    return out


def nvlink_count(link: str) -> int:
    m = _NVLINK.match(link)
    return int(m.group(1)) if m else 0
