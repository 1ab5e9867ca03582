"""Explicit platform switches (source/platform.py): a project that already has a HIP branch keeps it live.

Translating ``#if defined(__CUDACC__) ... #elif defined(__HIPCC__)`` by renaming ``__CUDACC__`` made the CUDA branch
live and the project's own HIP branch dead; hazards on the CUDA side of such a switch were reported although hipcc
never compiles that code for AMD.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cuda2rocm.model import Translated
from cuda2rocm.scan.api import scan
from cuda2rocm.source.platform import NONE, switches
from cuda2rocm.source.tokens import tokenize
from cuda2rocm.translate.api import convert_source
from cuda2rocm.translate.options import Options

SWITCHED = """\
#include <cuda_runtime.h>
#if defined(__CUDACC__) && !defined(__HIPCC__)
#include <cuda_fp16.h>
#define WARP 32
__device__ void pause_a_bit() { __nanosleep(100); }
#elif defined(__HIPCC__)
#define WARP 64
__device__ void pause_a_bit() { }
#endif
#ifdef __HIP_PLATFORM_AMD__
#define LANE(x) ((x) % 64)
#else
__device__ int lane() { return threadIdx.x & 31; }
#define LANE(x) ((x) % 32)
#endif
__global__ void k(int* p) { pause_a_bit(); p[threadIdx.x] = LANE(threadIdx.x) + WARP; }
int main() { int* d; cudaMalloc(&d, 256); k<<<1, 64>>>(d); cudaDeviceSynchronize(); return 0; }
"""


def _dead_text(src: str) -> list[str]:
    return [src[a:b] for a, b in switches(tokenize(src)).dead]


def test_the_cuda_branches_are_found() -> None:
    dead = _dead_text(SWITCHED)
    assert len(dead) == 2
    assert "__nanosleep" in dead[0] and "WARP 64" not in dead[0]
    assert "& 31" in dead[1] and "% 64" not in dead[1]


@pytest.mark.parametrize("src, dead", [
    ("#ifdef __HIPCC__\na\n#else\nb\n#endif\n", ["b\n"]),
    ("#ifndef __HIP_PLATFORM_AMD__\nb\n#else\na\n#endif\n", ["b\n"]),
    ("#if !defined(__HIP__)\nb\n#endif\n", ["b\n"]),
    ("#if defined(__HIPCC__) || defined(__CUDACC__)\na\n#else\nc\n#endif\n", ["c\n"]),
    # unknown names keep a branch live: only what hip-clang surely skips is dead
    ("#if defined(__HIPCC__) && USE_FAST\na\n#else\nb\n#endif\n", []),
    ("#ifdef __CUDACC__\n#  ifdef __HIPCC__\na\n#  else\nb\n#  endif\n#endif\n", ["b\n"]),
])
def test_switch_forms(src: str, dead: list[str]) -> None:
    assert _dead_text(src) == dead


def test_a_cuda_only_guard_is_no_switch() -> None:
    """Without a HIP name the file is not portable yet: ``#ifdef __CUDACC__`` is translated as before."""
    src = "#ifdef __CUDACC__\n__device__ int f() { return 1; }\n#endif\n"
    assert switches(tokenize(src)) is NONE
    r = convert_source(src)
    assert isinstance(r, Translated) and "#ifdef __HIPCC__" in r.text


def test_translation_keeps_the_switch() -> None:
    r = convert_source(SWITCHED)
    assert isinstance(r, Translated)
    out = r.text
    assert "#if defined(__CUDACC__) && !defined(__HIPCC__)\n#include <cuda_fp16.h>\n" in out
    assert "__device__ void pause_a_bit() { __nanosleep(100); }" in out
    assert "#ifdef __HIP_PLATFORM_AMD__\n" in out
    # the code outside the switches is translated
    assert "hipMalloc(&d, 256)" in out and "hipDeviceSynchronize()" in out and "<hip/hip_runtime.h>" in out
    # no finding about the CUDA-only side
    lines = {f.line for f in r.findings}
    assert not lines & {3, 4, 5, 13}, r.findings


def test_scan_reports_no_hazard_on_the_cuda_side(tmp_path: Path) -> None:
    (tmp_path / "k.cu").write_text(SWITCHED)
    found = [f for f in scan(tmp_path).findings if f.rule.startswith("C2R-K")]
    assert not [f for f in found if f.line in (4, 5, 13)], found


def test_a_hazard_outside_the_switch_is_still_found() -> None:
    src = SWITCHED + "__global__ void g(int* p) { int lane = threadIdx.x & 31; p[lane] = 0; }\n"
    r = convert_source(src, options=Options())
    assert any(f.rule == "C2R-K101" and f.line == SWITCHED.count("\n") + 1 for f in r.findings), r.findings


def _hipcc() -> str | None:
    from cuda2rocm.toolchain.discover import find_hipcc

    return find_hipcc()


@pytest.mark.hipcc
@pytest.mark.skipif(_hipcc() is None, reason="hipcc not installed")
def test_the_hip_branch_compiles(tmp_path: Path) -> None:
    """The translated file compiles for gfx90a, and the HIP branch is the one hipcc took (WARP is 64)."""
    from cuda2rocm.toolchain.discover import amd_env

    src = SWITCHED + 'static_assert(WARP == 64, "the HIP branch");\n'
    r = convert_source(src, options=Options(target_rocm="5.2"))
    assert isinstance(r, Translated)
    out = tmp_path / "k.hip"
    out.write_text(r.text)
    proc = subprocess.run([str(_hipcc()), "--offload-arch=gfx90a", "-c", str(out), "-o", str(tmp_path / "k.o")],
                          capture_output=True, text=True, env=amd_env(), check=False, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
