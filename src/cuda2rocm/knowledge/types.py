"""Typed, frozen records of the knowledge base. Every record carries ``source``, ``date`` and ``unverified``."""

from __future__ import annotations

from dataclasses import dataclass, field

from cuda2rocm.knowledge import versions
from cuda2rocm.knowledge.gpus import Gpu, Link

__all__ = ["Container", "EnvVar", "Gpu", "Library", "LibrarySide", "Link", "Plugin", "RocmRelease", "gpu_in_release"]


@dataclass(frozen=True)
class Plugin:
    key: str
    pip_names: tuple[str, ...]
    import_names: tuple[str, ...]
    # native_upstream | native_amd | amd_fork | upstream_partial | alternative | none | deprecated_project
    rocm_support: str
    replacement: str = ""
    install: tuple[str, ...] = ()
    caveats: tuple[str, ...] = ()
    facts: tuple[str, ...] = ()
    source: str = ""
    date: str = ""
    unverified: bool = False


@dataclass(frozen=True)
class RocmRelease:
    version: str
    gfx_targets: tuple[str, ...]
    architectures: tuple[str, ...] = ()
    os: tuple[str, ...] = ()
    frameworks: dict[str, tuple[str, ...]] = field(default_factory=dict)  # pytorch, tensorflow, jax, onnxruntime
    driver_compat: tuple[str, ...] = ()
    components: dict[str, str] = field(default_factory=dict)  # rccl, miopen, hipblas, ...
    kernels: dict[str, str] = field(default_factory=dict)  # OS -> validated kernel, where the matrix says
    notes: tuple[str, ...] = ()
    source: str = ""
    date: str = ""
    unverified: bool = False
    # names of the known GPUs this release supports (by gfx target and first-listed release): filled when the
    # knowledge base is assembled, from the GPU table (see ``gpu_in_release``)
    gpus: tuple[str, ...] = ()


def gpu_in_release(gpu: Gpu, release: RocmRelease) -> bool:
    """Whether ``release`` supports ``gpu``: an AMD GPU whose gfx target it lists, from its first-listed release on."""
    if gpu.vendor != "amd" or gpu.gfx_target not in release.gfx_targets:
        return False
    return not gpu.rocm_first_listed or versions.key(release.version) >= versions.key(gpu.rocm_first_listed)


@dataclass(frozen=True)
class LibrarySide:
    name: str
    header: str = ""
    link: str = ""
    cmake_package: str = ""
    cmake_target: str = ""


@dataclass(frozen=True)
class Library:
    cuda: str
    cuda_headers: tuple[str, ...] = ()
    cuda_link: str = ""
    hip: LibrarySide | None = None  # the hip* portable layer (runs on both vendors)
    rocm: LibrarySide | None = None  # the AMD-native implementation
    notes: tuple[str, ...] = ()
    source: str = ""
    date: str = ""
    unverified: bool = False


@dataclass(frozen=True)
class EnvVar:
    key: str
    cuda: str  # "" when the variable is ROCm-only
    rocm: tuple[str, ...]
    status: str  # honored | alias | analog | no_effect | rocm_only | no_equivalent_known
    note: str = ""
    source: str = ""
    date: str = ""
    unverified: bool = False


@dataclass(frozen=True)
class Container:
    key: str
    rocm_image: str
    replaces: str = ""
    tags: str = ""
    notes: tuple[str, ...] = ()
    source: str = ""
    date: str = ""
    unverified: bool = False
