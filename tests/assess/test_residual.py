"""Effort and risk from the residual work (assess/residual.py): a project whose port is a mechanical rename
comes out low with about a day of verification, however many CUDA references it has; one with closed binaries,
critical hazards or much PTX comes out high. Before the residual model the mechanical project below was rated
medium and the bundled example 25-74 person-days."""

from __future__ import annotations

from pathlib import Path

from cuda2rocm.assess.residual import COSTS, Residual
from cuda2rocm.scan.api import scan

EXAMPLE = Path(__file__).parents[2] / "examples" / "llm-service"

KERNEL = """#include <cuda_runtime.h>
__global__ void axpy{n}(float a, const float* x, float* y, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}}
void run{n}(const float* hx, float* hy, int n) {{
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMemcpy(x, hx, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, n * sizeof(float), cudaMemcpyHostToDevice);
  axpy{n}<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
  cudaDeviceSynchronize();
  cudaMemcpy(hy, y, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(x);
  cudaFree(y);
}}
"""


def _mechanical(root: Path, kernels: int = 12) -> Path:
    for n in range(kernels):
        (root / f"k{n}.cu").write_text(KERNEL.format(n=n))
    (root / "CMakeLists.txt").write_text("cmake_minimum_required(VERSION 3.18)\nproject(m LANGUAGES CXX CUDA)\n"
                                         "set(CMAKE_CUDA_ARCHITECTURES 80)\nadd_library(m " +
                                         " ".join(f"k{n}.cu" for n in range(kernels)) + ")\n")
    return root


def test_a_mechanical_rename_project_is_low(tmp_path: Path) -> None:
    result = scan(_mechanical(tmp_path))
    assert result.risk is not None
    assert result.risk.level == "low", result.risk.signals
    low, high = result.risk.effort_person_days
    assert 1 <= low <= high <= 8  # verification of 12 kernels, nothing to rewrite by hand
    assert all("verification gap" in s for s in result.risk.signals)


def test_manual_work_raises_the_level_and_the_days(tmp_path: Path) -> None:
    root = _mechanical(tmp_path)
    base = scan(root).risk
    (root / "warp.cu").write_text("__global__ void w(int* out) {\n  int lane = threadIdx.x % 32;\n"
                                  "  unsigned m = __ballot_sync(0xffffffff, lane < 16);\n  out[threadIdx.x] = m;\n}\n")
    worse = scan(root).risk
    assert base is not None and worse is not None
    assert worse.level in ("medium", "high") and worse.effort_person_days[1] > base.effort_person_days[1]
    assert any("by hand" in s for s in worse.signals)


def test_the_example_is_high_for_its_residual_not_its_reference_count() -> None:
    result = scan(EXAMPLE)
    assert result.risk is not None and result.risk.level == "high"
    assert result.risk.signals[0] == "2 critical finding(s) without an automatic fix"  # the K402 LDS overflows
    low, high = result.risk.effort_person_days
    assert 5 <= low < high <= 45


def test_days_are_the_documented_sums() -> None:
    left = Residual({"device": 2, "review": 4}, kernels=3)
    low = 0.5 + 0.1 * 3 + COSTS["device"][0] * 2 + COSTS["review"][0] * 4
    high = 1.0 + 0.5 * 3 + COSTS["device"][1] * 2 + COSTS["review"][1] * 4
    assert left.days() == (round(low), int(high) + (high > int(high)))
    assert left.manual == 2
    assert left.days(0.6)[1] <= left.days()[1]
