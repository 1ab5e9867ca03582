"""Settings of one translation run (what ``cuda2rocm convert``'s options become)."""

from __future__ import annotations

from dataclasses import dataclass

from cuda2rocm.model import Severity

DEFAULT_EXTENSIONS = (".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hxx", ".inl")
#: Files above this size are reported as input errors instead of being read (override with --max-size).
DEFAULT_MAX_BYTES = 32 * 1024 * 1024


@dataclass(frozen=True)
class Options:
    target_rocm: str = ""  # "" = the newest release in the mapping tables
    roc: bool = False  # cuBLAS -> rocBLAS etc. instead of hipBLAS
    launch_syntax: str = "keep"  # keep | ggl
    experimental: bool = False
    use_hip_data_types: bool = False
    fix_hazards: bool = False
    hazards: bool = True  # run the hazard analysis (findings)
    cu_suffix: str = ".hip"  # output suffix for .cu files; "" keeps .cu
    extensions: tuple[str, ...] = DEFAULT_EXTENSIONS
    follow_includes: bool = True  # convert local headers included by converted files
    respect_gitignore: bool = True  # directory walks skip what .gitignore files ignore
    max_bytes: int = DEFAULT_MAX_BYTES
    fail_on: Severity = Severity.HIGH
    jobs: int = 1  # worker processes; 0: automatic (cuda2rocm.batch.auto_jobs)

    def __post_init__(self) -> None:
        if self.launch_syntax not in ("keep", "ggl"):
            raise ValueError(f"launch syntax must be 'keep' or 'ggl', not {self.launch_syntax!r}")
        if self.jobs < 0:
            raise ValueError("jobs must be >= 0 (0: automatic)")
