"""``fixes()``: the safe rewrites change exactly what they should, keep everything else, and the fixed
kernels still compile with the real hipcc (AMD gfx90a) and nvcc."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cuda2rocm.hazards import analyze, apply_edits, fixes
from cuda2rocm.hazards.evaluate import load_labels
from cuda2rocm.source.tokens import IDENT, tokenize

HERE = Path(__file__).parent
CORPUS = HERE / "corpus"
KERNELS = sorted((HERE / "kernels").glob("*.cu"))
FIXABLE = {"C2R-K101", "C2R-K102", "C2R-K103", "C2R-K104", "C2R-K106", "C2R-K201", "C2R-K202", "C2R-K203",
           "C2R-K506", "C2R-K509", "C2R-K301"}  # K301: the rows of hazards/data/ptx_rewrites.csv


def _fix(text: str) -> str:
    return apply_edits(text, fixes(tokenize(text), text, "t.cu"))


def _rules(text: str) -> set[str]:
    return {f.rule for f in analyze(tokenize(text), text, "t.cu")}


MUST_CHANGE = [
    ("__device__ int f(bool p) { return __popc(__ballot_sync(__activemask(), p)); }",
     "return __popcll(__ballot_sync(__activemask(), p));"),
    ("__device__ int f(bool p) { unsigned b = __ballot_sync(__activemask(), p); return b; }",
     "unsigned long long b = __ballot_sync"),
    ("__device__ int f(bool p) { uint32_t b = __ballot_sync(__activemask(), p); return __ffs(b); }",
     "unsigned long long b = __ballot_sync(__activemask(), p); return __ffsll(b);"),
    ("__device__ float f(float v) { return __shfl_xor_sync(0xffffffff, v, 1); }",
     "__shfl_xor_sync(0xffffffffffffffffULL, v, 1)"),
    ("__device__ float f(float v) { return __shfl_xor_sync(0xFFFFFFFFu, v, 1); }",
     "__shfl_xor_sync(0xffffffffffffffffULL, v, 1)"),
    ("__global__ void k(int* o) { int lane = threadIdx.x & 31; o[lane] = __shfl_sync(__activemask(), 1, 0); }",
     "int lane = threadIdx.x & (warpSize - 1);"),
    ("__global__ void k(int* o) { int w = threadIdx.x >> 5; o[w] = __shfl_sync(__activemask(), 1, 0); }",
     "int w = threadIdx.x / warpSize;"),
    ("__global__ void k(int* o) { int n = (blockDim.x + 31) / 32; o[n] = __shfl_sync(__activemask(), 1, 0); }",
     "int n = (blockDim.x + (warpSize - 1)) / warpSize;"),
    ("__device__ float f(float v) { for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(__activemask(), v, o);"
     " return v; }", "for (int o = warpSize / 2; o > 0; o >>= 1)"),
    ("__device__ float f(float v) { for (std::uint32_t o = 16; o > 0; o >>= 1) "
     "v += __shfl_down_sync(__activemask(), v, o); return v; }", "for (std::uint32_t o = warpSize / 2; o > 0;"),
    ("__device__ float f(float v) { for (unsigned int o = 16 /* half */; o >= 1; o = o >> 1) "
     "v += __shfl_xor_sync(__activemask(), v, o); return v; }", "for (unsigned int o = warpSize / 2 /* half */;"),
    ("__device__ int f(int v) { for (int d = 1; d < 32; d *= 2) v += __shfl_up_sync(__activemask(), v, d);"
     " return v; }", "for (int d = 1; d < warpSize; d *= 2)"),
    ("__device__ float f(float v) { return __shfl_sync(__activemask(), v, 0, 32); }",
     "__shfl_sync(__activemask(), v, 0, warpSize)"),
    ("__global__ void k(int4* o, const int4* i) { o[threadIdx.x] = __ldcs(i + threadIdx.x); }",
     "o[threadIdx.x] = (*(i + threadIdx.x));"),
    ("__global__ void k(float4* o, float4 v) { __stcs(o + threadIdx.x, make_float4(v.x, 0, 0, v.w)); }",
     "(*(o + threadIdx.x) = (make_float4(v.x, 0, 0, v.w)));"),
    ("__global__ void k(float* o, const float* i) { o[0] = __ldcg(&i[1]) + __ldlu(i) * __ldcv(i + 2); }",
     "o[0] = (*(&i[1])) + (*(i)) * (*(i + 2));"),
    ("__global__ void k(int4* o, const int4* i) { __stcs(o + threadIdx.x, __ldcs(i + threadIdx.x)); }",
     "(*(o + threadIdx.x) = ((*(i + threadIdx.x))));"),  # nested: one edit, and fixing again changes nothing
]

MUST_NOT_CHANGE = [
    "__device__ int f(bool p) { unsigned long long b = __ballot_sync(__activemask(), p); return 31 - __clz(b); }",
    "__device__ unsigned f(unsigned x) { return __popc(x) + __ffs(x); }",
    "__global__ void k(float* o) { __shared__ float t[32][33]; t[threadIdx.y][threadIdx.x] = o[blockIdx.x * 32]; }",
    "__global__ void k(unsigned* o) { o[threadIdx.x] = 0xffffffff; }",
    "__global__ void k(int* o, int v) { o[threadIdx.x] = (v & 31) + v / 32 + (v >> 5); }",
    "__device__ int f(bool p) { int b = __ballot_sync(__activemask(), p); return b; }",  # int: reported, not fixed
    "#define WARP_SIZE 32\n",  # reported (K106), not fixed: the constant may size arrays
    "__global__ void k(float* o, const float* i) { o[0] = __ldg(i); }",  # __ldg is a plain load in HIP
    "__global__ void k(float* o, const float* i) { o[0] = __ldcs(); }",  # malformed: reported, not rewritten
]


@pytest.mark.parametrize(("before", "after"), MUST_CHANGE)
def test_must_change(before: str, after: str) -> None:
    fixed = _fix(before)
    assert after in fixed, fixed
    assert _fix(fixed) == fixed
    assert not (_rules(fixed) & FIXABLE), _rules(fixed)


@pytest.mark.parametrize("text", MUST_NOT_CHANGE)
def test_must_not_change(text: str) -> None:
    assert fixes(tokenize(text), text, "t.cu") == []


def _corpus() -> list[tuple[str, set[str]]]:
    return [(name, rules) for name, (rules, _) in sorted(load_labels(CORPUS).items())]


@pytest.mark.parametrize(("name", "rules"), _corpus(), ids=[n for n, _ in _corpus()])
def test_corpus_fixes_are_safe_and_idempotent(name: str, rules: set[str]) -> None:
    text = (CORPUS / name).read_text(encoding="utf-8")
    edits = fixes(tokenize(text), text, name)
    if not rules & FIXABLE:
        assert edits == [], "a snippet without fixable hazards must not be edited"
        return
    fixed = apply_edits(text, edits)
    assert fixes(tokenize(fixed), fixed, name) == [], "fixes are idempotent"
    assert _rules(fixed) <= _rules(text), "a fix never introduces a new finding"


def test_marker_names_rule_and_is_a_closed_comment() -> None:
    from cuda2rocm.hazards import marker

    text = "__device__ void f() { __nanosleep(100); }"
    finding = analyze(tokenize(text), text, "t.cu")[0]
    m = marker(finding)
    assert m.startswith("/* cuda2rocm: C2R-K504 ") and m.endswith(" */") and m.count("*/") == 1


_SYNC_TO_HIP52 = {"__shfl_sync": "__shfl", "__shfl_up_sync": "__shfl_up", "__shfl_down_sync": "__shfl_down",
                  "__shfl_xor_sync": "__shfl_xor", "__ballot_sync": "__ballot", "__any_sync": "__any",
                  "__all_sync": "__all"}


def to_hip52(text: str) -> str:
    """The simple name mapping HIP 5.2 needs: ``__X_sync(mask, ...)`` -> ``__X(...)``; CUDA headers -> HIP."""
    from cuda2rocm.hazards.context import Source
    from cuda2rocm.hazards.targets import resolve
    from cuda2rocm.model import Edit

    src = Source(tokenize(text), text, "t.cu", resolve("MI300X"))
    edits = []
    for i in src.code:
        tok = src.tokens[i]
        if tok.kind == IDENT and tok.src in _SYNC_TO_HIP52 and src.is_call(i):
            first = src.args(i)[0]
            comma = first[1]
            edits.append(Edit(tok.offset, src.tokens[comma].end, f"{_SYNC_TO_HIP52[tok.src]}(", ""))
    out = apply_edits(text, edits)
    return "#include <hip/hip_runtime.h>\n" + out.replace("#include <cstdio>", "")


def _device_part(path: Path) -> str:
    return path.read_text(encoding="utf-8").split("// --- host ---")[0]


def _compile(cmd: list[str], source: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*cmd, str(source)], capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.hipcc
@pytest.mark.skipif(shutil.which("hipcc") is None, reason="needs a real hipcc")
@pytest.mark.parametrize("kernel", KERNELS, ids=[k.stem for k in KERNELS])
def test_fixed_kernels_compile_with_hipcc(kernel: Path, tmp_path: Path) -> None:
    fixed = _fix(_device_part(kernel))
    assert fixed != _device_part(kernel)
    assert not (_rules(fixed) & FIXABLE)
    source = tmp_path / f"{kernel.stem}.hip"
    source.write_text(to_hip52(fixed), encoding="utf-8")
    env = {**os.environ, "HIP_PLATFORM": "amd"}
    done = subprocess.run(["hipcc", "--offload-arch=gfx90a", "-c", str(source), "-o", str(tmp_path / "k.o")],
                          capture_output=True, text=True, timeout=300, check=False, env=env)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "k.o").stat().st_size > 0


@pytest.mark.nvcc
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs a real nvcc")
def test_fixed_programs_compile_with_nvcc(tmp_path: Path) -> None:
    """The fixed programs are still valid CUDA (the GPU script runs them; here we only compile)."""
    for kernel in KERNELS:
        source = tmp_path / kernel.name
        source.write_text(_fix(kernel.read_text(encoding="utf-8")), encoding="utf-8")
        done = _compile(["nvcc", "-arch=sm_90", "-c", "-o", str(tmp_path / f"{kernel.stem}.o")], source)
        assert done.returncode == 0, f"{kernel.name}: {done.stderr}"
