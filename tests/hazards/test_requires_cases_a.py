"""Adversarial cases for the ``requires`` strings of the warp (K10x), mask (K20x), LDS (K40x) and device-call
(K509) rules: the trigger arrives in an unusual spelling (a hex, octal, binary or digit-separated literal, a
macro, a constant, host code, a variable holding the value), and the prefilter must neither hide the hit nor
change any other. The near misses hold none of a rule's strings: the unfiltered check reports nothing there."""

from __future__ import annotations

import pytest

from cuda2rocm.hazards.engine import device_rules, hits
from cuda2rocm.rules import get
from cuda2rocm.source.tokens import tokenize


def _view(text: str, *, prefilter: bool) -> list[tuple[str, int, str]]:
    found = hits(tokenize(text), text, "case.cu", rocm="5.2", prefilter=prefilter)
    return [(h.rule, h.index, h.message) for h in found]


CASES = [
    # K101 in host code (no device qualifier): 32 as hex, octal, binary and with a digit separator
    ("C2R-K101", "int threads(int num_warps) { return num_warps * 0x20; }\n"),
    ("C2R-K101", "int threads(int num_warps) { return num_warps * 040; }\n"),
    ("C2R-K101", "int threads(int num_warps) { return num_warps * 0b100000; }\n"),
    ("C2R-K101", "int threads(int num_warps) { return num_warps * 3'2; }\n"),
    # K101 through a constant whose value is written in hex; a lane stride in a host function
    ("C2R-K101", "#define WARP_SIZE 0x20\nvoid f(int* p, int lane_base, int n) {\n"
                 "  for (int c = lane_base; c < n; c += WARP_SIZE) p[c] = 0;\n}\n"),
    # K101 in a device function: a lane index masked with 0x1f (no 32 anywhere)
    ("C2R-K101", "__device__ void f(float* out, float v) {\n  int lane = threadIdx.x & 0x1F;\n"
                 "  v += __shfl_xor_sync(0xffffffffffffffffULL, v, 1);\n  out[lane] = v;\n}\n"),
    # K102: the start offset in hex, the mask through a macro
    ("C2R-K102", "#define FULL 0xffffffffffffffffULL\n__device__ float sum(float v) {\n"
                 "  for (unsigned o = 0x10; o > 0; o >>= 1) v += __shfl_down_sync(FULL, v, o);\n  return v;\n}\n"),
    # K102: the old unsynchronised shuffle, unrolled
    ("C2R-K102", "__device__ float sum(float v) { v += __shfl_xor(v, 16); return v; }\n"),
    # K103: the 32 behind a comment inside the brackets
    ("C2R-K103", "__global__ void k(float* out, float v) {\n  __shared__ float part[32 /* warps */];\n"
                 "  int w = threadIdx.x >> 5;\n  part[w] = v;\n}\n"),
    # K104: an unsynchronised shuffle in a function without any device qualifier
    ("C2R-K104", "float bcast(float v) { return __shfl(v, 0, 32); }\n"),
    # K105: the block size through a hex macro (3 * 0x20 = 96), the kernel warp-synchronous through volatile
    ("C2R-K105", "#define WARP 0x20\n__global__ void k(volatile float* s) { s[threadIdx.x] += s[threadIdx.x + 1]; }\n"
                 "void run(float* p) { k<<<1, 3 * WARP>>>(p); }\n"),
    # K106: a mixed-case name with an octal value, a constexpr with a hex value
    ("C2R-K106", "#define THREADS_PER_WaRP 040\n"),
    ("C2R-K106", "constexpr int kWArPSize = 0x20;\n"),
    # K107: the bound in hex, the warp synchrony through a callee that takes a volatile pointer
    ("C2R-K107", "__device__ void tail(volatile float* s, int t) { s[t] += s[t + 1]; }\n"
                 "__global__ void k(float* s) {\n  int tid = threadIdx.x;\n  if (tid < 0x20) tail(s, tid);\n}\n"),
    # K201: the full mask through a macro, and through a variable holding ~0u
    ("C2R-K201", "#define FULL 0xFFFFFFFFu\n__device__ void f() { __syncwarp(FULL); }\n"),
    ("C2R-K201", "__device__ int f(int p) { unsigned m = ~0u; return __any_sync(m, p); }\n"),
    # K202: an active mask kept in a const 32-bit integer
    ("C2R-K202", "__device__ int f() { const unsigned int m = __activemask(); return m != 0; }\n"),
    # K203: the ballot through a variable
    ("C2R-K203", "__device__ int f(bool p) {\n  unsigned long long b = __ballot(p);\n  return __ffs(b);\n}\n"),
    # K204: a lane from __lane_id() (no threadIdx), and a ballot compared with a full mask in decimal
    ("C2R-K204", "__device__ unsigned f() { int l = __lane_id(); return 1u << l; }\n"),
    ("C2R-K204", "__device__ bool f(bool p) { return __ballot_sync(0xffffffffffffffffULL, p) == 4294967295u; }\n"),
    # K205: a warp collective in a function without device qualifiers
    ("C2R-K205", "int total(int v) { return __reduce_max_sync(0xffffffffu, v); }\n"),
    # K401: the tile size through a hex macro and a template default (160 * 160 * 4 bytes)
    ("C2R-K401", "#define TILE 0xA0\ntemplate <int N = TILE>\n__global__ void k(float* p) {\n"
                 "  __shared__ float a[N][N];\n  a[threadIdx.y][threadIdx.x] = p[0];\n}\n"),
    # K402: only the attribute call (no launch), the size in hex
    ("C2R-K402", "__global__ void k(float* p) { extern __shared__ float s[]; s[0] = p[0]; }\n"
                 "void setup() { hipFuncSetAttribute(k, hipFuncAttributeMaxDynamicSharedMemorySize, 0x18000); }\n"),
    # K402: the dynamic size through a constant computed by shifts
    ("C2R-K402", "__global__ void k(float* p) { extern __shared__ float s[]; s[0] = p[0]; }\n"
                 "constexpr int SMEM = 96 << 10;\nvoid run(float* p) { k<<<1, 256, SMEM>>>(p); }\n"),
    # K509: ::std::free in a device lambda inside a kernel; printf in a __host__ __device__ function
    ("C2R-K509", "__global__ void k(float* p) { auto g = [](float* q) { ::std::free(q); }; g(p); }\n"),
    ("C2R-K509", "__host__ __device__ void f(int v) { printf(\"%d\\n\", v); }\n"),
]


@pytest.mark.parametrize(("rule_id", "text"), CASES)
def test_the_prefilter_keeps_an_unusually_spelled_hit(rule_id: str, text: str) -> None:
    assert get(rule_id).requires, rule_id
    unfiltered = _view(text, prefilter=False)
    assert any(r == rule_id for r, _, _ in unfiltered), (rule_id, unfiltered)
    assert _view(text, prefilter=True) == unfiltered


NEAR_MISSES = [
    # no 32-valued literal (64 is not one), no device qualifier
    ("C2R-K101", "int threads(int num_warps) { return num_warps * 64; }\n"),
    # the reduction loop of K102 around a user function, not a shuffle
    ("C2R-K102", "__device__ float sum(float v) {\n  for (int o = 16; o > 0; o >>= 1) v += my_shuffle(v, o);\n"
                 "  return v;\n}\n"),
    ("C2R-K106", "#define WAVE_LANES 32\nconstexpr int kLanes = 32;\n"),
    ("C2R-K107", "__global__ void k(float* s) { int tid = threadIdx.x; if (tid < 32) s[tid] = 0; }\n"),
    ("C2R-K204", "__device__ unsigned f(int l) { return 1u << l; }\n"),
    ("C2R-K402", "__global__ void k(float* p) { extern __shared__ float s[]; s[0] = p[0]; }\n"
                 "void run(float* p) { launch(k, 1, 256, 96 * 1024, p); }\n"),
]


@pytest.mark.parametrize(("rule_id", "text"), NEAR_MISSES)
def test_a_text_without_the_strings_has_no_hit(rule_id: str, text: str) -> None:
    requires = get(rule_id).requires
    assert not any(s in text for s in requires), rule_id
    assert not any(r == rule_id for r, _, _ in _view(text, prefilter=False))


def test_every_rule_of_these_modules_with_requires_has_a_case() -> None:
    modules = {"warp", "masks", "lds", "devicecalls"}
    mine = {r.id for r in device_rules() if r.requires and r.check is not None
            and r.check.__module__.rsplit(".", 1)[-1] in modules}
    assert mine and mine <= {rule_id for rule_id, _ in CASES}
