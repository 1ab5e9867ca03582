"""Facts about the AMD GPU the code is going to: wavefront size, LDS per workgroup, FP8 encoding.

``cuda2rocm.knowledge`` is the source of truth when it knows the GPU; the small table in
``data/gpus.yaml`` (with its source and date) is the fallback, so hazard analysis never depends on
another package being complete.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from cuda2rocm.datafiles import load_packaged_yaml


@dataclass(frozen=True)
class Target:
    name: str
    gfx: str
    wavefront: int
    lds_kib: int
    fp8: str  # "fnuz", "ocp" or "none"

    @property
    def lds_bytes(self) -> int:
        return self.lds_kib * 1024


class UnknownTarget(ValueError):
    """The target GPU name or gfx id is not known."""


@lru_cache(maxsize=1)
def _table() -> dict[str, Target]:
    data: Any = load_packaged_yaml("cuda2rocm.hazards", "data/gpus.yaml")[1]
    table: dict[str, Target] = {}
    for entry in data["gpus"]:
        for name in entry["names"]:
            t = Target(name, entry["gfx"], int(entry["wavefront"]), int(entry["lds_kib"]), entry["fp8"])
            table[name.lower()] = t
            table.setdefault(entry["gfx"], t)
    return table


def _from_knowledge(name: str, fp8: str) -> Target | None:
    """The knowledge base's view of an AMD GPU, or ``None`` when it does not know it (or is not there)."""
    try:
        from cuda2rocm import knowledge

        gpu = knowledge.get_gpu(name)
    except Exception:  # the knowledge base is optional here: any failure means "ask the fallback"
        return None
    if gpu is None or gpu.vendor != "amd" or not gpu.wavefront_size:
        return None
    lds = gpu.max_lds_per_workgroup_kib or gpu.lds_kib
    if not lds:
        return None
    return Target(gpu.name, gpu.gfx_target, int(gpu.wavefront_size), int(lds), fp8)


@lru_cache(maxsize=64)
def resolve(name: str) -> Target:
    """The target for a marketing name (``MI300X``) or gfx id (``gfx942``); raises :class:`UnknownTarget`."""
    key = name.strip().lower().replace("instinct", "").replace(" ", "")
    local = _table().get(key)
    known = _from_knowledge(name, local.fp8 if local else "none")
    if known is not None:
        return known
    if local is None:
        raise UnknownTarget(f"{_why_not(name)}; known: " + ", ".join(known_targets()))
    return local


def _why_not(name: str) -> str:
    try:
        from cuda2rocm import knowledge

        gpu = knowledge.get_gpu(name)
    except Exception:  # the knowledge base is optional here
        gpu = None
    if gpu is not None and gpu.vendor != "amd":
        return f"target GPU {name!r} is an {gpu.vendor.upper()} GPU: give the AMD GPU to port to"
    return f"unknown target GPU {name!r}: give an AMD GPU name or gfx target"


def known_targets() -> list[str]:
    """Every target :func:`resolve` accepts, by name: the knowledge base's AMD GPUs and this fallback table,
    then their gfx targets."""
    names: dict[str, str] = {}
    gfx: set[str] = set()
    try:
        from cuda2rocm import knowledge

        amd = [g for g in knowledge.gpus().values() if g.vendor == "amd"]
    except Exception:  # the knowledge base is optional here, as in _from_knowledge
        amd = []
    for gpu in amd:
        if _from_knowledge(gpu.name, "none") is not None:
            names.setdefault(gpu.name.lower(), gpu.name)
            gfx.add(gpu.gfx_target)
    for key, t in _table().items():
        if key != t.gfx:
            names.setdefault(key, key.upper() if key.startswith("mi") else t.name)
        gfx.add(t.gfx)
    return sorted(names.values()) + sorted(gfx, key=lambda g: (len(g), g))
