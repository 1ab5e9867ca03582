"""Facts about the AMD GPU the code is going to: wavefront size, LDS per workgroup, FP8 encoding.

They come from the knowledge base (``cuda2rocm.knowledge``, GPUs in ``knowledge/data/gpus.yaml``), the one GPU
table of the project; a user overlay there (``cuda2rocm kb update``) reaches the hazard analysis too.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from cuda2rocm import knowledge


class Target(NamedTuple):
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


def _target(gpu: knowledge.Gpu) -> Target | None:
    """The hazard facts of an AMD GPU; ``None`` for an NVIDIA GPU or one without wavefront and LDS facts."""
    lds = gpu.max_lds_per_workgroup_kib or gpu.lds_kib
    if gpu.vendor != "amd" or not gpu.wavefront_size or not lds:
        return None
    return Target(gpu.name, gpu.gfx_target, int(gpu.wavefront_size), int(lds), gpu.fp8 or "none")


@lru_cache(maxsize=64)
def resolve(name: str) -> Target:
    """The target for a marketing name (``MI300X``) or gfx id (``gfx942``); raises :class:`UnknownTarget`."""
    gpu = knowledge.get_gpu(name)
    found = _target(gpu) if gpu is not None else None
    if found is None:
        raise UnknownTarget(f"{_why_not(gpu, name)}; known: " + ", ".join(known_targets()))
    return found


def _why_not(gpu: knowledge.Gpu | None, name: str) -> str:
    if gpu is not None and gpu.vendor != "amd":
        return f"target GPU {name!r} is an {gpu.vendor.upper()} GPU: give the AMD GPU to port to"
    return f"unknown target GPU {name!r}: give an AMD GPU name or gfx target"


def _amd() -> list[knowledge.Gpu]:
    """The knowledge base's AMD GPUs with hazard facts."""
    return [g for g in knowledge.gpus().values() if _target(g) is not None]


def known_archs() -> list[str]:
    """The gfx targets :func:`resolve` accepts, shortest first: what ``--offload-arch`` takes."""
    return sorted({g.gfx_target for g in _amd()}, key=lambda x: (len(x), x))


def known_targets() -> list[str]:
    """Every target :func:`resolve` accepts: the knowledge base's AMD GPUs with hazard facts, then their gfx
    targets."""
    return sorted(g.name for g in _amd()) + known_archs()
