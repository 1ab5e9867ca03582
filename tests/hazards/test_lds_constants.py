"""Issue 32, class 2: shared memory above the target's LDS where the size is a constant expression written
through names: constants of a header, ``sizeof`` of a known type, the constant members of a traits struct (directly,
through a type alias or a template parameter bound by a launch), and the bytes given to
``cudaFuncSetAttribute``/``cuFuncSetAttribute`` through a variable. The message gives the value, where it comes
from and the target's limit. Hazards must be found on the lines marked ``// <-``; nothing else is reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from cuda2rocm.hazards import analyze
from cuda2rocm.source.tokens import tokenize

LDS = frozenset({"C2R-K401", "C2R-K402"})


def _found(code: str, target: str = "MI300X") -> dict[int, str]:
    return {f.line: f.message for f in analyze(tokenize(code), code, "case.cu", target_gpu=target) if f.rule in LDS}


def _marked(code: str) -> set[int]:
    return {n for n, line in enumerate(code.splitlines(), 1) if "// <-" in line}


POSITIVE = [
    # sizeof of known types
    """constexpr int kN = 8192;
__global__ void k(float4* p) {
  __shared__ char buf[kN * sizeof(float4)];  // <-
  buf[threadIdx.x] = 0;
}
""",
    # the constant members of a traits struct, named directly and through an alias
    """struct BigTraits { static constexpr int kTileM = 128; static constexpr int kTileK = 256; };
using Traits = BigTraits;
__global__ void k(float* p) {
  __shared__ float a[BigTraits::kTileM * BigTraits::kTileK];  // <-
  a[threadIdx.x] = p[0];
}
__global__ void k2(float* p) {
  __shared__ float b[Traits::kTileM][Traits::kTileK];  // <-
  b[0][threadIdx.x] = p[0];
}
""",
    # a template parameter bound to a traits struct by the kernel's launch, the element type by another
    """struct Small { static constexpr int kTileM = 32; static constexpr int kTileK = 32; };
struct Big { static constexpr int kTileM = 128; static constexpr int kTileK = 128; };
template <typename Traits, typename T>
__global__ void gemm(const T* a) {
  __shared__ T smem[Traits::kTileM * Traits::kTileK];  // <-
  smem[threadIdx.x] = a[0];
}
void run(const double* a, const float* b) {
  gemm<Small, double><<<1, 256>>>(a);
  gemm<Big, double><<<1, 256>>>(a);
}
""",
    # an alias of a class template's instantiation: its members with the arguments in place of the parameters
    """template <int kRows, int kCols = 64>
struct Tile { static constexpr int kElems = kRows * kCols; };
using Wide = Tile<300>;
typedef Tile<8, 8> Small;
__global__ void k(float* p) {
  __shared__ float a[Wide::kElems];  // <-
  __shared__ float b[Small::kElems];
  a[threadIdx.x] = b[threadIdx.x] = p[0];
}
""",
    # the bytes given to the attribute calls through variables, and a launch with them
    """#include <cuda.h>
constexpr int kStages = 5;
__global__ void k(float* p) { extern __shared__ float s[]; s[threadIdx.x] = p[0]; }
template <int N, int M> __global__ void t(float* p) { extern __shared__ float s[]; s[0] = p[N + M]; }
void run(float* p, CUfunction f) {
  const size_t smem_bytes = kStages * 128 * 64 * sizeof(__half);
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes);  // <-
  cudaFuncSetAttribute(t<1, 2>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem_bytes));  // <-
  int bytes = 96 * 1024;
  cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes);  // <-
  k<<<1, 256, smem_bytes>>>(p);  // <-
}
""",
]


@pytest.mark.parametrize("code", POSITIVE)
def test_sizes_through_names_are_evaluated(code: str) -> None:
    found = _found(code)
    assert set(found) == _marked(code), found
    assert all("64 KiB" in m and "MI300X" in m for m in found.values()), found
    assert _found(code, target="MI355X") == {}  # 160 KiB of LDS: none of these exceed it


def test_the_message_says_where_the_size_comes_from() -> None:
    found = _found(POSITIVE[4])
    assert "smem_bytes = kStages * 128 * 64 * sizeof(__half)" in found[7], found[7]
    assert "kStages = 5 at line 2" in found[7], found[7]
    traits = _found(POSITIVE[2])[5]
    assert "131072 bytes" in traits and "Traits = Big" in traits, traits


NEGATIVE = [
    # 48 KiB through the same spellings
    """struct T { static constexpr int kTileM = 64; static constexpr int kTileK = 96; };
__global__ void k(float* p) {
  __shared__ float a[T::kTileM * T::kTileK * 2];
  a[threadIdx.x] = p[0];
}
void run(float* p) {
  size_t bytes = 48 * 1024;
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
}
""",
    # a member name shared with an unknown struct: not evaluated as the known one
    """struct Known { static constexpr int kTile = 512; };
__global__ void k(float* p) {
  __shared__ float a[Other::kTile * Other::kTile];
  a[threadIdx.x] = p[0];
}
""",
]


@pytest.mark.parametrize("code", NEGATIVE)
def test_sizes_within_the_limit_or_unknown_stay_quiet(code: str) -> None:
    assert _found(code) == {}


def test_header_constants_and_traits(tmp_path: Path) -> None:
    from cuda2rocm.scan.api import scan

    (tmp_path / "tile_config.h").write_text(
        "#pragma once\n#define TILE_M 128\n#define TILE_K 64\n"
        "struct Cfg { static constexpr int kStages = 3; };\n", encoding="utf-8")
    (tmp_path / "gemm.cu").write_text(
        '#include "tile_config.h"\n__global__ void g(float* p) {\n'
        "  __shared__ float a[Cfg::kStages][TILE_M][TILE_K];\n  a[0][0][threadIdx.x] = p[0];\n}\n",
        encoding="utf-8")
    found = [f for f in scan(tmp_path, target_gpu="MI300X").findings if f.rule in LDS]
    assert [(f.path, f.line) for f in found] == [("gemm.cu", 3)]
    assert "98304 bytes" in found[0].message and "tile_config.h" in found[0].message
