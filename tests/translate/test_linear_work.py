"""convert and scan do work linear in the size of a file: four times the text costs at most ~4.5 times the
Python function calls (counted by the profiler, so the check is exact and never a timing). A step quadratic in a
name's uses (each use scanning the earlier ones) shows here as a ratio of 10 and more; issue 18 item 8 was that."""

from __future__ import annotations

import cProfile
import pstats
from collections.abc import Callable
from pathlib import Path

import pytest

from cuda2rocm.files.walk import Candidate
from cuda2rocm.scan.filescan import scan_file
from cuda2rocm.translate.engine import translate_text
from cuda2rocm.translate.options import Options

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "llm-service" / "csrc"
# device code that exercises the name-use paths: parameters named like CUDA entities, shuffles, launches
EXTRA = """
__device__ unsigned clampu{i}(unsigned a, bool saturate) {{ return saturate ? a : 0u; }}
__global__ void axpy{i}(float* y, const float* x, float a, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? a * x[i] : 0.f;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(y, v);
}}
void launch{i}(float* y, const float* x, int n, cudaStream_t s) {{
  axpy{i}<<<(n + 255) / 256, 256, 0, s>>>(y, x, 2.f, n);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) printf("%s\\n", cudaGetErrorString(err));
}}
"""


def _unit(i: int) -> str:
    return "".join(p.read_text() for p in sorted(EXAMPLE.glob("*.cu"))) + EXTRA.format(i=i)


def _calls(work: Callable[[], object]) -> int:
    profile = cProfile.Profile()
    profile.runcall(work)
    return sum(row[1] for row in pstats.Stats(profile).stats.values())  # type: ignore[attr-defined]


def _text(units: int) -> str:
    return "".join(_unit(i) for i in range(units))


@pytest.mark.parametrize("name, work", [
    ("convert", lambda text: translate_text(text, "big.cu", Options(target_rocm="5.2"))),
    ("convert --fix-hazards --launch-syntax ggl",
     lambda text: translate_text(text, "big.cu", Options(fix_hazards=True, launch_syntax="ggl"))),
])
def test_convert_work_grows_linearly_with_the_file(name: str, work: Callable[[str], object], tmp_path: Path) -> None:
    small, big = _text(15), _text(60)
    work(small)  # tables loaded, caches warm: the counts below are the file's own
    ratio = _calls(lambda: work(big)) / _calls(lambda: work(small))
    assert ratio < 4.5, f"{name}: 4x the text cost {ratio:.1f}x the calls"


def test_scan_work_grows_linearly_with_the_file(tmp_path: Path) -> None:
    files = {}
    for name, units in (("small.cu", 15), ("big.cu", 60)):
        (tmp_path / name).write_text(_text(units))
        files[name] = Candidate(str(tmp_path / name), name, "cuda", (tmp_path / name).stat().st_size)

    def work(name: str) -> Callable[[], object]:
        return lambda: scan_file(files[name], "MI250X", 1 << 30)

    work("small.cu")()
    ratio = _calls(work("big.cu")) / _calls(work("small.cu"))
    assert ratio < 4.5, f"scan: 4x the text cost {ratio:.1f}x the calls"
