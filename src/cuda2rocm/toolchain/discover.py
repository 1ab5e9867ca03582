"""Find the compilers and ROCm installs on this machine, their versions and AMD offload targets."""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from cuda2rocm.mapping.version import Version, parse_version

_HIP_VERSION = re.compile(r"HIP version:\s*(\d+(?:\.\d+)*)")
_NVCC_VERSION = re.compile(r"release (\d+\.\d+)")
_ISA_BITCODE = re.compile(r"oclc_isa_version_(\w+)\.bc$")
_BITCODE_DIRS = (
    "{rocm}/amdgcn/bitcode",
    "{rocm}/lib/llvm/lib/clang/*/lib/amdgcn/bitcode",
    "/usr/lib/*/amdgcn/bitcode",
    "/usr/lib/amdgcn/bitcode",
)


class ToolNotFound(FileNotFoundError):
    """The compiler is not installed (or not on PATH / under a ROCm root)."""


@dataclass(frozen=True)
class RocmInstall:
    root: str
    version: Version | None
    source: str  # "ROCM_PATH", "HIP_PATH", "/opt/rocm*"


def amd_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """Environment for hipcc: with nvcc on PATH hipcc would otherwise pick the NVIDIA platform."""
    env = dict(os.environ if base is None else base)
    env["HIP_PLATFORM"] = "amd"
    return env


def _rocm_roots() -> list[tuple[str, str]]:
    roots = [(os.environ[var], var) for var in ("ROCM_PATH", "HIP_PATH") if os.environ.get(var)]
    roots += [(path, "/opt/rocm*") for path in sorted(glob.glob("/opt/rocm*"))]
    return [(root, source) for root, source in roots if Path(root).is_dir()]


def _version_file(root: str) -> Version | None:
    for name in (".info/version", ".info/version-dev", "share/doc/rocm/version"):
        path = Path(root, name)
        if path.is_file():
            try:
                return parse_version(path.read_text(encoding="utf-8", errors="replace"))
            except ValueError:
                return None
    return None


def find_rocm() -> list[RocmInstall]:
    """ROCm installs named by ROCM_PATH / HIP_PATH, then every /opt/rocm* directory (deduplicated)."""
    found: dict[str, RocmInstall] = {}
    for root, source in _rocm_roots():
        real = os.path.realpath(root)
        found.setdefault(real, RocmInstall(root, _version_file(root), source))
    return list(found.values())


def find_hipcc() -> str | None:
    """hipcc under a ROCm root first (ROCM_PATH/HIP_PATH/opt), then on PATH."""
    for install in find_rocm():
        candidate = Path(install.root, "bin", "hipcc")
        if os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which("hipcc")


def find_nvcc() -> str | None:
    """nvcc on PATH, else under CUDA_HOME / CUDA_PATH / /usr/local/cuda."""
    found = shutil.which("nvcc")
    if found:
        return found
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root and os.access(Path(root, "bin", "nvcc"), os.X_OK):
            return str(Path(root, "bin", "nvcc"))
    return None


def _version_output(tool: str, env: dict[str, str] | None = None) -> str:
    try:
        done = subprocess.run(
            [tool, "--version"], capture_output=True, encoding="utf-8", errors="replace", timeout=60, env=env
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout + done.stderr


def hip_version(hipcc: str | None = None) -> Version | None:
    """The HIP version hipcc reports (``HIP version: 5.2.21153-0`` -> 5.2.21153)."""
    tool = hipcc or find_hipcc()
    match = _HIP_VERSION.search(_version_output(tool, amd_env())) if tool else None
    return parse_version(match.group(1)) if match else None


def nvcc_version(nvcc: str | None = None) -> Version | None:
    tool = nvcc or find_nvcc()
    match = _NVCC_VERSION.search(_version_output(tool)) if tool else None
    return parse_version(match.group(1)) if match else None


def offload_archs(rocm_root: str | None = None) -> tuple[str, ...]:
    """AMD targets with device libraries installed (``oclc_isa_version_<isa>.bc``), e.g. gfx90a.

    With ``rocm_root`` only that install counts; otherwise every discovered ROCm install plus the
    distribution's directories (Debian: /usr/lib/x86_64-linux-gnu/amdgcn/bitcode). A target needs its
    device-library bitcode to link; Debian 12 ships none for gfx942 or gfx1100. The compiler may still
    reject a listed target: :func:`cuda2rocm.toolchain.compile.probe_arch` compiles a kernel to be sure."""
    roots = [rocm_root] if rocm_root else [i.root for i in find_rocm()]
    patterns = [p.format(rocm=root) for root in roots for p in _BITCODE_DIRS if "{rocm}" in p]
    if rocm_root is None:
        patterns += [p for p in _BITCODE_DIRS if "{rocm}" not in p]
    archs: set[str] = set()
    for pattern in patterns:
        for folder in glob.glob(pattern):
            archs.update(_isa_names(folder))
    return tuple(sorted(archs, key=_arch_key))


def _isa_names(folder: str) -> set[str]:
    names = set()
    for path in glob.glob(os.path.join(folder, "oclc_isa_version_*.bc")):
        match = _ISA_BITCODE.search(path)
        if match:
            names.add("gfx" + match.group(1))
    return names


def _arch_key(arch: str) -> tuple[int, str]:
    digits = arch[3:]
    return (len(digits), digits)
