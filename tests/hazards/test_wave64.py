"""--fix-hazards must leave kernels consistent on 64-wide wavefronts: the fixed kernels are executed in the SIMT
model of ``wavesim`` with wavefronts of 32 and 64 lanes.

The evidence for issue 18 item 1 (the bundled ``reduce_kernels.cu``): the original kernel happens to be right
on wave64, the old partial fix (lane and shuffle start fixed, ``WARP_SIZE`` and ``partial[32]`` left) reads
``partial[1,3,5,7]``, which no thread wrote, and the grouped fix is right again.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from tests.hazards.wavesim import SimError, Simulator, Unsupported

from cuda2rocm.hazards import analyze, apply_edits, fixes
from cuda2rocm.source.tokens import tokenize

ROOT = Path(__file__).resolve().parents[2]
REDUCE = ROOT / "examples" / "llm-service" / "csrc" / "reduce_kernels.cu"
KERNELS = Path(__file__).parent / "kernels"


def _fixed(text: str, drop: frozenset[str] = frozenset()) -> str:
    edits = [e for e in fixes(tokenize(text), text, "k.cu") if e.rule not in drop]
    return apply_edits(text, edits)


def _rms_norm(text: str, width: int) -> tuple[np.ndarray, np.ndarray, list[str]]:
    rows, cols, eps = 3, 300, 1e-5
    rng = np.random.default_rng(7)
    x, w = rng.standard_normal(rows * cols), rng.standard_normal(cols)
    xs = x.reshape(rows, cols)
    want = (xs / np.sqrt((xs * xs).mean(axis=1, keepdims=True) + eps) * w).ravel()
    y = np.full(rows * cols, np.nan)
    report = Simulator(text, width).launch("rms_norm_kernel", rows, 256, {"x": x, "weight": w, "y": y,
                                                                           "cols": cols, "eps": eps})
    return y, want, report.uninitialised_reads + report.undefined_stores


@pytest.mark.parametrize("width", [32, 64])
def test_original_reduce_kernel_is_right_on_both_widths(width: int) -> None:
    y, want, problems = _rms_norm(REDUCE.read_text(encoding="utf-8"), width)
    assert problems == [] and np.allclose(y, want)


def test_partial_fix_reads_unwritten_shared_memory_on_wave64() -> None:
    """The fix as it was: every edit but those of the definition (K106) and the per-warp array (K103)."""
    text = REDUCE.read_text(encoding="utf-8")
    partial = _fixed(text, frozenset({"C2R-K106", "C2R-K103"}))
    assert "& (warpSize - 1)" in partial and "#define WARP_SIZE 32" in partial
    y, want, problems = _rms_norm(partial, 64)
    assert "block (0, 0): partial[1]" in problems and "block (0, 0): partial[7]" in problems
    assert not np.allclose(y, want)
    y32, _, problems32 = _rms_norm(partial, 32)  # on NVIDIA the partial fix is still right
    assert problems32 == [] and np.allclose(y32, want)


@pytest.mark.parametrize("width", [32, 64])
def test_grouped_fix_of_reduce_kernel_is_right_on_both_widths(width: int) -> None:
    fixed = _fixed(REDUCE.read_text(encoding="utf-8"))
    assert "#define WARP_SIZE warpSize" in fixed and "partial[64]" in fixed
    y, want, problems = _rms_norm(fixed, width)
    assert problems == [] and np.allclose(y, want)


@pytest.mark.parametrize("width", [32, 64])
def test_count_positive_fixed_counts_every_lane(width: int) -> None:
    text = REDUCE.read_text(encoding="utf-8")
    logits = np.random.default_rng(3).standard_normal(1000)
    for version, right in ((text, width == 32), (_fixed(text), True)):
        count = np.zeros(1, dtype=np.int64)
        report = Simulator(version, width).launch("count_positive_kernel", 4, 256,
                                                  {"logits": logits, "n": 1000, "count": count})
        assert report.uninitialised_reads == [] and report.undefined_stores == []
        assert (int(count[0]) == int((logits > 0).sum())) == right, (width, int(count[0]))


def test_block_sum_kernel_fixed_is_right_on_wave64() -> None:
    text = (KERNELS / "warp_reduce.cu").read_text(encoding="utf-8").split("// --- host ---")[0]
    data = np.arange(8 * 256, dtype=float) % 13
    for version in (text, _fixed(text)):
        for width in (32, 64):
            out = np.full(8, np.nan)
            report = Simulator(version, width).launch("block_sum", 8, 256, {"in": data, "out": out})
            assert report.clean and np.allclose(out, data.reshape(8, 256).sum(axis=1)), (width, version is text)


# ---------------------------------------------------------------- the model can fail ------------------------


def test_model_reports_shuffles_of_inactive_lanes_and_divergent_barriers() -> None:
    text = ("__global__ void k(float* o) { float v = threadIdx.x; if (threadIdx.x < 16) "
            "v += __shfl_down_sync(0xffffffff, v, 8); o[threadIdx.x] = v; }")
    out = np.zeros(32)
    report = Simulator(text, 32).launch("k", 1, 32, {"o": out})
    assert [s.split(": ")[1] for s in report.undefined_stores] == [f"o[{i}]" for i in range(8, 16)]
    with pytest.raises(SimError, match="__syncthreads"):
        Simulator("__global__ void k(float* o) { if (threadIdx.x < 3) __syncthreads(); }", 32).launch(
            "k", 1, 64, {"o": out})
    with pytest.raises(Unsupported):
        Simulator("__global__ void k(float* o) { do { } while (0); }", 32).launch("k", 1, 32, {"o": out})


def test_model_wraps_ballots_stored_in_32_bits() -> None:
    text = ("__global__ void k(int* o) { unsigned b = __ballot_sync(0xffffffff, 1); "
            "unsigned long long w = __ballot_sync(0xffffffff, 1); o[0] = __popc(b); o[1] = __popcll(w); }")
    out = np.zeros(2, dtype=np.int64)
    Simulator(text, 64).launch("k", 1, 64, {"o": out})
    assert out.tolist() == [32, 64]


# ---------------------------------------------------------------- grouping ----------------------------------


def test_group_with_a_hazard_without_fix_is_left_whole() -> None:
    text = ("#define WARP_SIZE 32\n"
            "__global__ void k(float* o) {\n"
            "  __shared__ float s[WARP_SIZE];\n"  # a constant expression: the define cannot become warpSize
            "  int lane = threadIdx.x & 31;\n"
            "  int warp = threadIdx.x / WARP_SIZE;\n"
            "  float v = o[threadIdx.x];\n"
            "  for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffff, v, d);\n"
            "  if (lane == 0) s[warp] = v;\n"
            "}\n")
    edits = fixes(tokenize(text), text, "k.cu")
    assert {e.rule for e in edits} == {"C2R-K201"}, edits  # the mask is independent; the width uses are not
    found = {(f.rule, f.line): f.fix for f in analyze(tokenize(text), text, "k.cu")}
    assert found[("C2R-K101", 4)].startswith("Not applied: C2R-K106 at line 1"), found
    assert "leaves the" in found[("C2R-K106", 1)], found


def test_group_spans_called_helpers() -> None:
    """The helper's shuffle start and the kernel's lane are one group: a blocker in the kernel keeps both."""
    text = ("__device__ float sum(float v) {\n"
            "  for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffff, v, d);\n  return v;\n}\n"
            "__global__ void k(float* o) {\n  int lane = threadIdx.x & 31;\n  float v = sum(o[threadIdx.x]);\n"
            "  if (threadIdx.x < 32) o[lane] = v;\n}\n"
            "__device__ float other(float v) {\n"
            "  for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xffffffff, v, d);\n  return v;\n}\n")
    fixed = apply_edits(text, fixes(tokenize(text), text, "k.cu"))
    assert "int d = 16; d > 0; d >>= 1) v += __shfl_down" in fixed and "threadIdx.x & 31" in fixed
    assert "int d = warpSize / 2; d > 0; d >>= 1) v += __shfl_xor" in fixed  # an unrelated function is fixed


def test_grouped_fix_text_names_the_other_lines() -> None:
    text = REDUCE.read_text(encoding="utf-8")
    found = {(f.rule, f.line): f.fix for f in analyze(tokenize(text), text, "reduce_kernels.cu")}
    assert found[("C2R-K101", 21)] == ("safe fix available (--fix-hazards), applied together with the 5 related "
                                       "warp-width uses (lines 7, 10, 18, 20, 30)")


def test_define_used_in_a_header_or_host_code_is_not_rewritten() -> None:
    kernel = "__global__ void k(int* o) { o[threadIdx.x / WARP_SIZE] = 1; }\n"
    for text, path in (("#define WARP_SIZE 32\n" + kernel, "k.cuh"),
                       ("#define WARP_SIZE 32\n" + kernel + "int host() { return WARP_SIZE; }\n", "k.cu"),
                       ("#define WARP_SIZE 32\n#if WARP_SIZE == 32\n#endif\n" + kernel, "k.cu")):
        assert fixes(tokenize(text), text, path) == [], (path, text)
    text = "#define WARP_SIZE 32\n" + kernel
    assert apply_edits(text, fixes(tokenize(text), text, "k.cu")).startswith("#define WARP_SIZE warpSize\n")


@pytest.mark.parametrize("width", [32, 64])
def test_rms_norm_test_kernel_grouped_fix_on_both_widths(width: int) -> None:
    """The kernel under tests/hazards/kernels/ (compiled with hipcc by test_fixes, run on a GPU by the GPU script)
    behaves like the bundled one: the partial fix is wrong on wave64, the grouped fix right on both widths."""
    text = (KERNELS / "rms_norm.cu").read_text(encoding="utf-8").split("// --- host ---")[0]
    for version, right in ((_fixed(text), True), (_fixed(text, frozenset({"C2R-K106", "C2R-K103"})), width == 32)):
        y, want, problems = _rms_norm(version, width)
        assert (problems == [] and bool(np.allclose(y, want))) == right, (width, problems[:3])


def test_a_group_spanning_a_big_file_lists_its_first_lines_and_a_count() -> None:
    # every kernel using WARP_SIZE is one group; the note listed every other line of it, so a file of n kernels
    # had n notes of n lines each (quadratic in size and time)
    kernel = ("__global__ void k{i}(float* o) {{\n  float v = o[threadIdx.x];\n"
              "  for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffff, v, d);\n"
              "  if ((threadIdx.x & 31) == 0) o[threadIdx.x / WARP_SIZE] = v;\n}}\n")
    text = "#define WARP_SIZE 32\n" + "".join(kernel.format(i=i) for i in range(40))
    found = analyze(tokenize(text), text, "k.cu")
    notes = [f.fix for f in found if "related warp-width uses" in f.fix and f.line == 1]  # the define's
    assert len(notes) == 1, "the uses form one group"
    listed = notes[0].split("(lines ", 1)[1]
    assert listed.count(",") == 19 and listed.endswith(" more)"), notes[0]
    other_lines = len({f.line for f in found if "related warp-width uses" in f.fix} - {1})
    assert other_lines > 40 and f"and {other_lines - 20} more" in notes[0], notes[0]
