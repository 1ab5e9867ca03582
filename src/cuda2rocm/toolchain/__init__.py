"""Find hipcc/nvcc/ROCm, compile with them for real, parse their diagnostics, map lines back."""

from __future__ import annotations

from cuda2rocm.toolchain.compile import CompileResult, compile_cuda, compile_hip, probe_arch, run_compiler
from cuda2rocm.toolchain.diagnostics import Diagnostic, parse_diagnostics, parse_line
from cuda2rocm.toolchain.discover import (
    HipccTargets,
    RocmInstall,
    ToolNotFound,
    amd_env,
    find_hipcc,
    find_nvcc,
    find_rocm,
    hip_version,
    hipcc_targets,
    nvcc_version,
    offload_archs,
)
from cuda2rocm.toolchain.linemap import apply_edits, map_line, map_offset

__all__ = [
    "CompileResult",
    "Diagnostic",
    "HipccTargets",
    "RocmInstall",
    "ToolNotFound",
    "amd_env",
    "apply_edits",
    "compile_cuda",
    "compile_hip",
    "find_hipcc",
    "find_nvcc",
    "find_rocm",
    "hip_version",
    "hipcc_targets",
    "map_line",
    "map_offset",
    "nvcc_version",
    "offload_archs",
    "parse_diagnostics",
    "parse_line",
    "probe_arch",
    "run_compiler",
]
