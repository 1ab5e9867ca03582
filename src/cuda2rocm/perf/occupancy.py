"""Static occupancy of translated kernels on AMD targets, before any AMD run.

The compiler's own resource report is the input: ``hipcc --offload-arch=<gfx> -c -Rpass-analysis=
kernel-resource-usage`` prints, per kernel, SGPRs, VGPRs, AGPRs, scratch, LDS per block and the occupancy
(waves per SIMD) its registers allow. The estimate joins it with the target's limits (``data/amd_occupancy.csv``:
max waves per SIMD, SIMDs per CU) and the GPU's LDS per CU (knowledge base), for a given block size: the waves
per SIMD are the least of what registers allow and what LDS allows (blocks that fit a CU's LDS times waves per
block, spread over its SIMDs), as a fraction of the hardware maximum. A wave64 GPU runs a 256-thread block as 4
waves where an NVIDIA GPU runs 8 warps, so kernels tuned for 32-wide warps show up here first.

Debian's hipcc (ROCm 5.2, LLVM 15) knows gfx940 but not gfx942: for MI300X the report is compiled for gfx940
(same CDNA3 register file and wave limits) and says so.
"""

from __future__ import annotations

import contextlib
import functools
import math
import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from cuda2rocm import knowledge
from cuda2rocm.datafiles import packaged_csv

_REMARK = re.compile(r"^(?P<file>.*?):(?P<line>\d+):\d+: remark:\s+(?P<key>[^:\[]+?)(?: \[(?P<unit>[^\]]+)\])?:\s*"
                     r"(?P<value>\S+) \[-Rpass-analysis=kernel-resource-usage\]$")
#: targets Debian's hipcc lacks -> the target of the same family it compiles for instead
COMPILE_AS = {"gfx942": "gfx940"}


@dataclass(frozen=True)
class Resources:
    """One kernel's resource report from the compiler."""

    function: str  # mangled, as the compiler names it
    file: str
    line: int
    sgprs: int = 0
    vgprs: int = 0
    agprs: int = 0
    scratch_bytes: int = 0  # per lane
    lds_bytes: int = 0  # per block
    occupancy: int = 0  # waves per SIMD the compiler computed (registers, at the kernel's max block size)


@dataclass(frozen=True)
class Limits:
    gfx: str
    max_waves_per_simd: int
    simds_per_cu: int
    vgprs_per_simd_lane: int
    vgpr_granule: int


@functools.lru_cache(maxsize=1)
def limits() -> dict[str, Limits]:
    rows = packaged_csv("cuda2rocm.perf", "data/amd_occupancy.csv")
    return {r["gfx"]: Limits(r["gfx"], int(r["max_waves_per_simd"]), int(r["simds_per_cu"]),
                             int(r["vgprs_per_simd_lane"]), int(r["vgpr_granule"])) for r in rows}


def parse_remarks(text: str) -> list[Resources]:
    """The kernels of one compile's ``-Rpass-analysis=kernel-resource-usage`` remarks, in order."""
    out: list[Resources] = []
    current: dict[str, object] | None = None
    names = {"SGPRs": "sgprs", "VGPRs": "vgprs", "AGPRs": "agprs", "ScratchSize": "scratch_bytes",
             "Occupancy": "occupancy", "LDS Size": "lds_bytes"}
    for line in text.splitlines():
        m = _REMARK.match(line.strip())
        if not m:
            continue
        key = m.group("key").strip()
        if key == "Function Name":
            if current is not None:
                out.append(Resources(**current))  # type: ignore[arg-type]
            current = {"function": m.group("value"), "file": m.group("file"), "line": int(m.group("line"))}
        elif current is not None and key in names:
            with contextlib.suppress(ValueError):
                current[names[key]] = int(m.group("value"))
    if current is not None:
        out.append(Resources(**current))  # type: ignore[arg-type]
    return out


def compile_report(source: Path, gfx: str, hipcc: str | None = None, extra: Sequence[str] = ()) -> tuple[
        list[Resources], str]:
    """Compile ``source`` for ``gfx`` (object discarded) and read the resource remarks; (kernels, error)."""
    hipcc = hipcc or shutil.which("hipcc")
    if hipcc is None:
        return [], "hipcc is not on PATH"
    target = COMPILE_AS.get(gfx, gfx) if not _knows(hipcc, gfx) else gfx
    command = [hipcc, f"--offload-arch={target}", "-c", str(source), "-o", "/dev/null",
               "-Rpass-analysis=kernel-resource-usage", *extra]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False,
                          env={**_env(), "HIP_PLATFORM": "amd"})
    kernels = parse_remarks(done.stderr)
    if done.returncode != 0:
        errors = [ln for ln in done.stderr.splitlines() if "error" in ln][:3]
        return kernels, f"{source}: hipcc failed for {target}: {' | '.join(errors) or done.stderr[-300:]}"
    return kernels, ""


def _env() -> dict[str, str]:
    import os

    return dict(os.environ)


@functools.lru_cache(maxsize=16)
def _knows(hipcc: str, gfx: str) -> bool:
    """Does this hipcc accept ``gfx`` (a one-line empty compile)?"""
    done = subprocess.run([hipcc, f"--offload-arch={gfx}", "-x", "hip", "-c", "-", "-o", "/dev/null"],
                          input="", capture_output=True, text=True, timeout=120, check=False,
                          env={**_env(), "HIP_PLATFORM": "amd"})
    return done.returncode == 0


@dataclass(frozen=True)
class Estimate:
    kernel: Resources
    gpu: str
    gfx: str
    compiled_for: str
    block_size: int
    waves_per_block: int
    by_registers: int  # waves per SIMD
    by_lds: int
    waves_per_simd: int
    max_waves_per_simd: int
    limited_by: str

    @property
    def fraction(self) -> float:
        return self.waves_per_simd / self.max_waves_per_simd if self.max_waves_per_simd else 0.0


def estimate(kernel: Resources, gpu_name: str, block_size: int = 256, compiled_for: str = "") -> Estimate:
    """Waves per SIMD of ``kernel`` on ``gpu_name`` with blocks of ``block_size`` threads."""
    gpu = knowledge.get_gpu(gpu_name)
    if gpu is None or not gpu.gfx_target:
        raise ValueError(f"not an AMD GPU the knowledge base knows: {gpu_name}")
    lim = limits().get(gpu.gfx_target)
    if lim is None:
        raise ValueError(f"no occupancy limits recorded for {gpu.gfx_target} (data/amd_occupancy.csv)")
    wave = gpu.wavefront_size or 64
    waves_per_block = max(1, math.ceil(block_size / wave))
    by_registers = kernel.occupancy or _by_vgprs(kernel, lim)
    lds_cu = int((gpu.lds_kib or 64) * 1024)
    by_lds = lim.max_waves_per_simd
    if kernel.lds_bytes:  # blocks that fit the CU's LDS, their waves spread over its SIMDs
        by_lds = (lds_cu // kernel.lds_bytes) * waves_per_block // lim.simds_per_cu
    waves = min(lim.max_waves_per_simd, by_registers, by_lds)
    limited = ", ".join(n for n, v in (("registers", by_registers), ("LDS", by_lds)) if v == waves) or "hardware"
    return Estimate(kernel, gpu.name, gpu.gfx_target, compiled_for or gpu.gfx_target, block_size, waves_per_block,
                    by_registers, min(by_lds, lim.max_waves_per_simd), waves, lim.max_waves_per_simd,
                    limited if waves < lim.max_waves_per_simd else "hardware maximum")


def _by_vgprs(kernel: Resources, lim: Limits) -> int:
    used = max(1, kernel.vgprs + kernel.agprs)
    rounded = math.ceil(used / lim.vgpr_granule) * lim.vgpr_granule
    return min(lim.max_waves_per_simd, lim.vgprs_per_simd_lane // rounded)


@functools.lru_cache(maxsize=4096)
def demangle(name: str) -> str:
    """``_Z5saxpyfPKfPfi`` -> ``saxpy(float, float const*, float*, int)`` with c++filt where installed."""
    tool = shutil.which("c++filt") or shutil.which("llvm-cxxfilt")
    if tool is None or not name.startswith("_Z"):
        return name
    done = subprocess.run([tool, name], capture_output=True, text=True, timeout=30, check=False)
    return done.stdout.strip() or name
