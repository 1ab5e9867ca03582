"""--fix-hazards fixes what is provably safe and leaves a marker comment (plus the finding) for the rest."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cuda2rocm.model import Translated
from cuda2rocm.translate.api import convert_source
from cuda2rocm.translate.options import Options

SRC = """#include <cuda_runtime.h>
#define WARP_SIZE 32
__global__ void k(const float* x, float* out, unsigned* count) {
  __shared__ float partial[32];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x / WARP_SIZE;
  float v = x[threadIdx.x];
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  unsigned mask = __ballot_sync(0xffffffff, v > 0.f);
  if (lane == 0) atomicAdd(count, __popc(mask));
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}
"""


def _convert(fix: bool) -> Translated:
    result = convert_source(SRC, "k.cu", Options(target_rocm="5.2", fix_hazards=fix))
    assert isinstance(result, Translated)
    return result


def _marked_lines(text: str) -> dict[int, str]:
    return {n: line for n, line in enumerate(text.splitlines(), 1) if "/* cuda2rocm: C2R-K" in line}


def test_a_kernel_whose_warp_width_uses_all_have_fixes_is_fixed_whole() -> None:
    """The definition, the lane, the warp id, the shuffle start and the ballot are fixed together (issue 18:
    fixing the lane and the shuffle but not ``WARP_SIZE`` left the kernel inconsistent on wave64)."""
    result = _convert(fix=True)
    assert _marked_lines(result.text) == {}
    lines = result.text.splitlines()
    assert lines[1] == "#define WARP_SIZE warpSize"
    assert "threadIdx.x & (warpSize - 1)" in lines[4] and "__popcll(mask)" in lines[11]
    assert "offset = warpSize / 2" in lines[7] and "unsigned long long mask" in lines[10]
    assert "partial[32]" in lines[3]  # one slot per warp: 32 slots hold 1024 / warpSize warps of any width
    k106 = next(f for f in result.findings if f.rule == "C2R-K106")
    assert k106.fix.startswith("safe fix available (--fix-hazards), applied together with the ")


def test_unfixed_hazards_get_markers_on_their_lines() -> None:
    """``partial[WARP_SIZE]`` needs a constant: the define cannot become ``warpSize``, so no warp-width use of
    the kernel is fixed and each gets a marker, the array sized by the macro too (the 64-bit ballot mask,
    independent of the width, is fixed)."""
    src = SRC.replace("partial[32]", "partial[WARP_SIZE]")
    result = convert_source(src, "k.cu", Options(target_rocm="5.2", fix_hazards=True))
    assert isinstance(result, Translated)
    marked = _marked_lines(result.text)
    assert set(marked) == {2, 4, 5, 6, 8, 11, 12}
    assert "C2R-K103 shared array 'partial[WARP_SIZE]' holds one slot per warp" in marked[4]  # sized by the macro
    assert marked[2] == "/* cuda2rocm: C2R-K106 'WARP_SIZE' hard-codes a 32-thread warp */ #define WARP_SIZE 32"
    assert marked[6].startswith("  /* cuda2rocm: C2R-K101 warp id computed with WARP_SIZE (a constant 32)")
    assert marked[6].endswith("*/ const int warp = threadIdx.x / WARP_SIZE;")
    assert "threadIdx.x & 31" in marked[5] and "__popc(mask)" in marked[12]
    k101 = next(f for f in result.findings if f.rule == "C2R-K101" and f.line == 5)
    assert k101.fix.startswith("Not applied: C2R-K")


def test_no_markers_without_fix_hazards() -> None:
    result = _convert(fix=False)
    assert _marked_lines(result.text) == {}
    assert {f.rule for f in result.findings} >= {"C2R-K101", "C2R-K106", "C2R-K203"}


def test_marked_output_is_recognised_as_hip() -> None:
    again = convert_source(_convert(fix=True).text, "k.hip", Options(target_rocm="5.2", fix_hazards=True))
    assert type(again).__name__ in ("Skipped", "Unchanged")


@pytest.mark.hipcc
@pytest.mark.skipif(shutil.which("hipcc") is None, reason="hipcc not installed")
def test_fixed_and_marked_output_compiles_for_gfx90a(tmp_path: Path) -> None:
    src = tmp_path / "k.hip"
    src.write_text(_convert(fix=True).text)
    proc = subprocess.run(["hipcc", "--offload-arch=gfx90a", "-c", "-x", "hip", str(src), "-o", str(tmp_path / "k.o")],
                          capture_output=True, text=True, env={"HIP_PLATFORM": "amd", "PATH": "/usr/bin:/bin"},
                          timeout=300)
    assert proc.returncode == 0, proc.stderr


def test_inline_ptx_gets_a_marker_in_code() -> None:
    """PTX with no rewrite of the same meaning is marked (``%laneid`` is rewritten to ``__lane_id()`` since
    issue 29: tests/hazards/test_ptx_rewrites.py)."""
    src = ("__device__ unsigned warp_slot() {\n  unsigned r;\n"
           '  asm volatile("mov.u32 %0, %%warpid;" : "=r"(r));\n  return r;\n}\n')
    result = convert_source(src, "p.cu", Options(fix_hazards=True))
    assert isinstance(result, Translated)
    marked = _marked_lines(result.text)
    assert list(marked) == [4]  # line 3 of the source; the inserted hip_runtime.h include comes first
    assert marked[4].startswith("  /* cuda2rocm: C2R-K301 inline PTX 'mov.u32'")
    assert marked[4].endswith('*/ asm volatile("mov.u32 %0, %%warpid;" : "=r"(r));')
