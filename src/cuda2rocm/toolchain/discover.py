"""Find the compilers and ROCm installs on this machine, their versions and AMD offload targets."""

from __future__ import annotations

import functools
import glob
import os
import re
import shlex
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


@dataclass(frozen=True)
class HipccTargets:
    """What one hipcc can compile for: its clang's AMD processors and the installed device libraries."""

    hipcc: str
    hip: Version | None
    clang: str  # the clang hipcc drives ("" when it could not be found)
    compiler: tuple[str, ...]  # gfx processors the clang accepts (() when it could not be asked)
    device_libs: tuple[str, ...]  # gfx targets with device-library bitcode (() when none were found)

    def supported(self) -> tuple[str, ...]:
        """Targets both know; either list alone when the other is unknown."""
        if self.compiler and self.device_libs:
            return tuple(a for a in self.compiler if a in self.device_libs)
        return self.compiler or self.device_libs

    def problem(self, arch: str) -> str:
        """Why this hipcc cannot compile for ``arch`` (``gfx90a``, ``gfx90a:xnack-``); "" when it can (as far
        as asking it tells: with neither list known, "")."""
        base = arch.split(":")[0].strip().lower()
        hip = f"HIP {self.hip}" if self.hip else "unknown HIP version"
        what = f"{self.hipcc} ({hip})"
        known = self.supported()
        listing = f"; it compiles for: {', '.join(known)}" if known else ""
        if self.compiler and base not in self.compiler:
            return f"{what} does not support --offload-arch {arch} (its clang does not know the processor){listing}"
        if self.compiler and self.device_libs and base not in self.device_libs:
            return (f"{what} has no device library for {base} (oclc_isa_version_{base[3:]}.bc), so it cannot "
                    f"compile for it{listing}")
        return ""


def hipcc_targets(hipcc: str | None = None) -> HipccTargets:
    """Ask the found hipcc what it compiles for (cached per hipcc binary and its modification time)."""
    tool = hipcc or find_hipcc()
    if tool is None:
        raise ToolNotFound("hipcc not found")
    try:
        stamp = os.stat(tool).st_mtime_ns
    except OSError:
        stamp = 0
    return _hipcc_targets(tool, stamp)


@functools.lru_cache(maxsize=8)
def _hipcc_targets(hipcc: str, stamp: int) -> HipccTargets:
    clang = _driven_clang(hipcc)
    return HipccTargets(hipcc, hip_version(hipcc), clang, _clang_amdgpu_cpus(clang) if clang else (), offload_archs())


def _run_quiet(argv: list[str], env: dict[str, str] | None = None) -> str:
    try:
        done = subprocess.run(argv, capture_output=True, encoding="utf-8", errors="replace", timeout=60, env=env,
                              stdin=subprocess.DEVNULL, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout + "\n" + done.stderr


def _driven_clang(hipcc: str) -> str:
    """The clang binary hipcc runs: the first word of the ``-cc1`` job clang's ``-###`` prints."""
    out = _run_quiet([hipcc, "-###", "--cuda-host-only", "-x", "hip", os.devnull, "-c", "-o", os.devnull], amd_env())
    for line in out.splitlines():
        try:
            words = shlex.split(line)
        except ValueError:
            continue
        if len(words) > 1 and words[1] == "-cc1" and os.access(words[0], os.X_OK):
            return words[0]
    return ""


def _clang_amdgpu_cpus(clang: str) -> tuple[str, ...]:
    """``clang --target=amdgcn-amd-amdhsa --print-supported-cpus``: the gfx processors this clang knows."""
    out = _run_quiet([clang, "--target=amdgcn-amd-amdhsa", "-nogpulib", "--print-supported-cpus", "-x", "c",
                      os.devnull, "-c", "-o", os.devnull])
    lines = out.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("Available CPUs for this target")), None)
    if start is None:
        return ()
    cpus = {w for line in lines[start + 1:] for w in line.split()[:1] if w.startswith("gfx")}
    return tuple(sorted(cpus, key=_arch_key))
