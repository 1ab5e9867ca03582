"""Issue 32, class 1: the warp width written through a name. A constant of 32 under any name (``#define``,
``constexpr``, ``enum``, ``static const``, a template parameter by default or by explicit argument), a log2 width
of 5 named as a shift, or a 32-bit full mask, used for a lane, a warp id, a per-warp array, a shuffle start or
width, a ballot kept in 32 bits. Each case is written here: the uses must be reported on the lines marked
``// <-`` (by a rule of the warp-width family), the definition on a line marked ``// def`` (C2R-K106, once), and
nothing else; the look-alikes stay quiet."""

from __future__ import annotations

from pathlib import Path

import pytest

from cuda2rocm.hazards import analyze
from cuda2rocm.source.tokens import tokenize

WARP_RULES = frozenset({"C2R-K101", "C2R-K102", "C2R-K103", "C2R-K104", "C2R-K105", "C2R-K107", "C2R-K201",
                        "C2R-K202", "C2R-K203", "C2R-K204"})


def _found(code: str, path: str = "case.cu") -> dict[int, set[str]]:
    out: dict[int, set[str]] = {}
    for f in analyze(tokenize(code), code, path, target_gpu="MI300X"):
        if f.rule in WARP_RULES | {"C2R-K106"}:
            out.setdefault(f.line, set()).add(f.rule)
    return out


def _marked(code: str, mark: str) -> set[int]:
    return {n for n, line in enumerate(code.splitlines(), 1) if mark in line}


POSITIVE = [
    # constexpr under a name that says nothing of warps: lane and warp id in warp-synchronous code
    """constexpr int kLanes = 32;  // def
__global__ void k(float* out, float v) {
  int lane = threadIdx.x % kLanes;  // <-
  int wid = threadIdx.x / kLanes;  // <-
  v += __shfl_xor_sync(__activemask(), v, 1);
  if (lane == 0) out[wid] = v;
}
""",
    # an enumerator, the lane mask spelling (W - 1), and a warp id by a shift of a log2 width
    """enum { kThreads = 32, kLog = 5 };  // def
#define LOG_W 5
__global__ void k(float* out, float v) {
  int lane = threadIdx.x & (kThreads - 1);  // <-
  int wid = threadIdx.x >> LOG_W;  // <-
  v += __shfl_down_sync(__activemask(), v, 1);
  if (lane == 0) out[wid] = v;
}
""",
    # static const sizing a per-warp array; a per-warp array sized THREADS / 32
    """static const int WS = 32;  // def
#define THREADS 256
__global__ void k(float* out, float v) {
  __shared__ float part[WS];  // <-
  __shared__ float again[THREADS / 32];  // <-
  int wid = threadIdx.x / warpSize;
  v += __shfl_down_sync(__activemask(), v, 1);
  part[wid] = v;
  again[wid] = v;
  out[0] = part[0] + again[0];
}
""",
    # the shuffle start and width through a constant
    """constexpr int kLanes = 32;  // def
__device__ float sum(float v) {
  for (int o = kLanes / 2; o > 0; o >>= 1)  // <-
    v += __shfl_down_sync(__activemask(), v, o, kLanes);  // <-
  return v;
}
""",
    # a template parameter defaulting to 32, and one defaulting to a constant of 32
    """template <int kWidth = 32>
__device__ float sum(float v) {
  for (int o = kWidth >> 1; o > 0; o >>= 1) v += __shfl_xor_sync(__activemask(), v, o, kWidth);  // <-
  return v;
}
constexpr int kLanes = 32;  // def
template <typename T, int kW = kLanes>
__device__ T total(T v) {
  for (int d = 1; d < kW; d <<= 1) v += __shfl_up_sync(__activemask(), v, d);  // <-
  return v;
}
""",
    # a template parameter without a default, 32 by an explicit argument
    """template <int W>
__device__ float reduce(float v) {
  for (int o = W / 2; o > 0; o /= 2) v += __shfl_xor_sync(__activemask(), v, o);  // <-
  return v;
}
__global__ void k(float* p) { p[0] = reduce<32>(p[threadIdx.x]); }
""",
    # a full mask through a constexpr constant and a macro; a ballot compared with it, returned and stored in 32 bits
    """constexpr unsigned kFull = 0xffffffffu;
#define FULL_MASK 0xffffffffu
typedef unsigned int lanemask_t;
__device__ unsigned vote(bool p) {
  return __ballot_sync(__activemask(), p);  // <-
}
__device__ bool all(bool p) {
  lanemask_t b = __ballot_sync(__activemask(), p);  // <-
  return b == FULL_MASK;  // <-
}
__device__ float x(float v) { return __shfl_xor_sync(kFull, v, 1); }  // <-
""",
    # a warp count through a constant at file scope; CUB's storage per 32 lanes, whatever indexes it
    """#include <cub/cub.cuh>
constexpr int kLanes = 32;  // def
constexpr int kWarps = 256 / kLanes;  // <-
template <int BLOCK>
__global__ void k(const float* in, float* out) {
  using WarpReduce = cub::WarpReduce<float>;
  __shared__ typename WarpReduce::TempStorage temp[BLOCK / 32];  // <-
  out[0] = WarpReduce(temp[threadIdx.x / CUB_PTX_WARP_THREADS]).Sum(in[threadIdx.x]);
}
""",
    # a per-warp array indexed by a portable warp id, and the warp count read back through a warp-size constant
    """#define BLOCK 512
#define WARP_LANES 32  // def
__device__ float wsum(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down_sync(__activemask(), v, o);
  return v;
}
__global__ void k(const float* x, float* out) {
  __shared__ float part[BLOCK / WARP_LANES];  // <-
  float v = wsum(x[threadIdx.x]);
  if (threadIdx.x % warpSize == 0) part[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.f;
    for (int w = 0; w < BLOCK / WARP_LANES; ++w) t += part[w];  // <-
    out[blockIdx.x] = t;
  }
}
""",
    # a class template's parameter 32 by default, read through a member constant by its member function
    """template <typename T, int kN = 32>
struct Reducer {
  static constexpr int kSpan = kN;
  __device__ static T run(T v) {
    for (int o = kSpan / 2; o > 0; o >>= 1) v += __shfl_down_sync(__activemask(), v, o);  // <-
    return v;
  }
};
""",
    # a constant of 32 with no warp in its name sizing CUB's storage, outside warp-synchronous code
    """#include <cub/cub.cuh>
constexpr int kThreads = 256;
constexpr int kGroup = 32;  // def
__global__ void k(const float* x, float* out) {
  using WR = cub::WarpScan<float>;
  __shared__ typename WR::TempStorage tmp[kThreads / kGroup];  // <-
  float s;
  WR(tmp[threadIdx.x / warpSize]).InclusiveSum(x[threadIdx.x], s);
  out[threadIdx.x] = s;
}
""",
    # CUB's warp reduction with temporary storage counted per 32 lanes
    """#include <cub/cub.cuh>
#define BLOCK 256
__global__ void k(const float* in, float* out) {
  typedef cub::WarpReduce<float> WarpReduce;
  __shared__ typename WarpReduce::TempStorage temp[BLOCK / 32];  // <-
  int warp_id = threadIdx.x / warpSize;
  float s = WarpReduce(temp[warp_id]).Sum(in[threadIdx.x]);
  if (threadIdx.x % warpSize == 0) out[warp_id] = s;
}
""",
]


@pytest.mark.parametrize("code", POSITIVE)
def test_uses_are_reported_and_the_definition_once(code: str) -> None:
    found = _found(code)
    uses = {line for line, rules in found.items() if rules & WARP_RULES}
    defs = {line for line, rules in found.items() if "C2R-K106" in rules}
    assert uses == _marked(code, "// <-"), found
    assert defs == _marked(code, "// def"), found


NEGATIVE = [
    # a tile of 32 in a transpose: no warp primitive, no lane named
    """#define TILE 32
__global__ void t(const float* in, float* out, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  int row = threadIdx.x / TILE;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  out[x * n + y] = tile[threadIdx.x][threadIdx.y] + row;
}
""",
    # 32 histogram bins
    """constexpr int kBins = 32;
__global__ void h(const int* v, int* out) {
  __shared__ int hist[kBins];
  if (threadIdx.x < kBins) hist[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&hist[v[threadIdx.x] % kBins], 1);
}
""",
    # a template tile width of 32 for a cooperative-groups tile, and a 32-bit data mask
    """#include <cooperative_groups.h>
namespace cg = cooperative_groups;
constexpr int kTile = 32;
constexpr unsigned kLow = 0xffffffffu;
__global__ void k(unsigned* p) {
  auto t = cg::tiled_partition<kTile>(cg::this_thread_block());
  p[threadIdx.x] = (p[threadIdx.x] & kLow) + t.thread_rank() % kTile;
}
""",
]


@pytest.mark.parametrize("code", NEGATIVE)
def test_look_alikes_stay_quiet(code: str) -> None:
    assert _found(code) == {}


def test_a_constant_from_a_header_is_reported_at_the_use_with_its_origin(tmp_path: Path) -> None:
    from cuda2rocm.scan.api import scan

    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "cfg.h").write_text("#pragma once\n#define LANES 32\n", encoding="utf-8")
    (tmp_path / "k.cu").write_text(
        '#include "include/cfg.h"\n__global__ void k(float* out, float v) {\n'
        "  int lane = threadIdx.x % LANES;\n  v += __shfl_xor_sync(__activemask(), v, 1);\n"
        "  if (lane == 0) out[threadIdx.x / warpSize] = v;\n}\n", encoding="utf-8")
    found = [f for f in scan(tmp_path, target_gpu="MI300X").findings if f.rule in WARP_RULES]
    assert [(f.path, f.line, f.rule) for f in found] == [("k.cu", 3, "C2R-K101")]
    assert "LANES = 32 at include/cfg.h:2" in found[0].message


def test_triton_warp_counts_and_lane_ranges_of_32(tmp_path: Path) -> None:
    from cuda2rocm.scan.api import scan

    (tmp_path / "k.py").write_text(
        "import triton\nimport triton.language as tl\nWARP_SIZE = 32\n"
        "def cfg(BLOCK):\n"
        "    num_warps = BLOCK // 32\n"  # 5
        "    n = max(1, BLOCK // WARP_SIZE)\n"  # a quotient of 32 that counts no warps
        "    return triton.Config({'BLOCK': BLOCK // 32}, num_warps=max(1, BLOCK // WARP_SIZE))\n"  # 7
        "@triton.jit\ndef k(x, BLOCK: tl.constexpr):\n"
        "    lanes = tl.arange(0, 32)\n"  # 10
        "    offs = tl.arange(0, 32)\n"
        "    num_warps = 4 if torch.version.hip else BLOCK // 32\n"
        "    n_warps = triton.cdiv(BLOCK, WARP_SIZE)\n"  # 13
        "    blocks = triton.cdiv(N, 32)\n", encoding="utf-8")
    found = [f.line for f in scan(tmp_path, target_gpu="MI300X").findings if f.rule == "C2R-P110"]
    assert found == [5, 7, 10, 13]
