"""Typed, frozen records of the knowledge base. Every record carries ``source``, ``date`` and ``unverified``."""

from __future__ import annotations

from dataclasses import dataclass, field

from cuda2rocm.knowledge import versions


@dataclass(frozen=True)
class Link:
    """One kind of GPU-to-GPU link: ``count`` links of ``gbs`` GB/s each (``direction`` says how counted)."""

    name: str
    count: int | None = None
    gbs: float | None = None
    direction: str | None = None  # "bidirectional" | "per-direction"
    aggregate_gbs: float | None = None
    unverified: bool = False


@dataclass(frozen=True)
class Gpu:
    name: str
    vendor: str  # "amd" | "nvidia"
    family: str
    architecture: str
    gfx_target: str = ""  # AMD only
    compute_capability: str = ""  # NVIDIA only
    wavefront_size: int = 0  # default wave/warp size under HIP/CUDA
    wavefront_sizes: tuple[int, ...] = ()
    lds_kib: float | None = None  # per CU (AMD) / per SM (NVIDIA)
    max_lds_per_workgroup_kib: float | None = None
    max_workgroup_size: int = 1024
    memory_gib: float | None = None
    bandwidth_tbs: float | None = None
    compute_units: int | None = None  # CUs (AMD) or SMs (NVIDIA)
    matrix_cores: str = ""
    fp8: str = ""  # AMD: "fnuz" | "ocp" | "none" (the FP8 encoding the hardware implements); "" not recorded
    links: tuple[Link, ...] = ()
    rocm_first_listed: str = ""  # first ROCm release whose matrix lists this GPU (when later than its gfx target)
    notes: tuple[str, ...] = ()
    source: str = ""
    date: str = ""
    unverified: bool = False

    @property
    def target(self) -> str:
        """The compile target: gfx name on AMD, ``sm_XY`` on NVIDIA."""
        return self.gfx_target or ("sm_" + self.compute_capability.replace(".", "") if self.compute_capability else "")


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
