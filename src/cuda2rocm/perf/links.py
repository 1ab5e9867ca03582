"""Peak GPU-link bandwidth for the fraction-of-peak column (data: ``data/links.csv``, with sources).

NVLink through NVSwitch (``NV18`` in ``nvidia-smi topo -m``): each GPU drives its k links at once, so
the per-direction peak is k x per-link. XGMI full mesh (MI300X): a rank talks to each peer over one
link, so n ranks use min(n - 1, links) links. PCIe or unknown topologies give no peak (None).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from cuda2rocm.datafiles import packaged_csv
from cuda2rocm.perf.topology import nvlink_count


@dataclass(frozen=True)
class LinkSpec:
    gpu_match: str
    link: str
    per_link: float  # GB/s per direction
    links_per_gpu: int
    topology: str
    source: str
    date: str


@dataclass(frozen=True)
class Peak:
    label: str  # e.g. "NVLink4 x18"
    gbps: float  # per direction
    source: str


@lru_cache(maxsize=1)
def table() -> tuple[LinkSpec, ...]:
    rows = packaged_csv("cuda2rocm.perf", "data/links.csv")
    return tuple(
        LinkSpec(r["gpu_match"], r["link"], float(r["per_link_GBps_per_direction"]), int(r["links_per_gpu"]),
                 r["topology"], r["source"], r["date"])
        for r in rows
    )


def spec_for(gpu_name: str) -> LinkSpec | None:
    """The row whose ``gpu_match`` is the longest match inside the GPU's name ('NVIDIA H200' -> H200)."""
    upper = gpu_name.upper()
    hits = [s for s in table() if s.gpu_match.upper() in upper]
    return max(hits, key=lambda s: len(s.gpu_match)) if hits else None


def peak(gpu_name: str, link_code: str, world: int) -> Peak | None:
    """Per-direction peak for one rank, from the GPU model and the topology code between its GPUs."""
    spec = spec_for(gpu_name)
    if spec is None:
        return None
    k = nvlink_count(link_code)
    if k and spec.link.startswith("NVLink"):
        return Peak(f"{spec.link} x{k}", k * spec.per_link, spec.source)
    if link_code == "XGMI" and spec.link == "XGMI":
        used = max(1, min(world - 1, spec.links_per_gpu))
        return Peak(f"XGMI x{used}", used * spec.per_link, spec.source)
    return None
