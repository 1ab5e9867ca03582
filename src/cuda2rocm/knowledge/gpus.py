"""The GPU records of the knowledge base (re-exported by :mod:`cuda2rocm.knowledge.types` with the others):
their own module, because the hazard analysis of every ``convert`` needs a GPU's facts and none of the other
records (a frozen dataclass costs milliseconds to define)."""

from __future__ import annotations

from dataclasses import dataclass


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
