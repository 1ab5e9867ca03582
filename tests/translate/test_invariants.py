"""Invariants over every golden fixture: lossless tokens, only reported edits change bytes, idempotence."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.translate.golden import GOLDEN, inputs, options_for, output_text, read, translate

from cuda2rocm.model import Failed, Translated
from cuda2rocm.source.tokens import tokenize, untokenize
from cuda2rocm.toolchain.linemap import map_line
from cuda2rocm.translate.api import convert_source
from cuda2rocm.translate.apply import apply
from cuda2rocm.translate.options import Options

CASES = inputs()
IDS = [str(p.relative_to(GOLDEN)) for p in CASES]


@pytest.mark.parametrize("src", CASES, ids=IDS)
def test_round_trip(src):
    text = read(src)
    assert untokenize(tokenize(text)) == text


@pytest.mark.parametrize("src", CASES, ids=IDS)
def test_only_reported_edits_change_bytes(src):
    text = read(src)
    r = translate(src, text)
    if not isinstance(r, Translated):
        return
    assert apply(text, r.edits) == r.text
    # every byte outside the edited spans survives, in order
    pos = 0
    for e in r.edits:
        assert r.text.find(text[pos:e.start]) >= 0
        pos = e.end
    assert r.text.endswith(text[pos:])
    # comments and strings are never edited, except a device symbol named by a string (the CUDA < 5.0 form of
    # cudaMemcpyToSymbol("c_table", ...)), which becomes the variable itself and is reported (C2R-A113)
    protected = [(t.offset, t.end) for t in tokenize(text) if t.kind in ("COMMENT", "STRING", "CHAR")]
    for e in r.edits:
        if e.rule == "fallback:string-symbol":
            assert any(f.rule == "C2R-A113" for f in r.findings)
            continue
        assert not any(s < e.end and e.start < end for s, end in protected), e


@pytest.mark.parametrize("src", CASES, ids=IDS)
def test_idempotent(src):
    text = read(src)
    once = output_text(translate(src, text), text)
    again = convert_source(once, "again.hip", options_for(text))
    assert output_text(again, once) == once


@pytest.mark.parametrize("src", CASES, ids=IDS)
def test_every_translated_line_maps_back(src):
    text = read(src)
    r = translate(src, text)
    if not isinstance(r, Translated):
        return
    lines_in = text.count("\n") + 1
    for n in range(1, r.text.count("\n") + 2):
        assert 1 <= map_line(r.edits, text, r.text, n) <= lines_in


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("cudaMlo_(){};<>#\"'/*\n \\ x0")) , max_size=120))
def test_never_raises_and_is_lossless_on_junk(text):
    r = convert_source(text, "junk.cu")
    if isinstance(r, Failed):
        assert "internal error" not in r.error
    elif isinstance(r, Translated):
        assert apply(text, r.edits) == r.text


# ---- directives between lines change nothing (issue 16: a call right after `#endif` was not translated) ----

_DIRECTIVES = ("#if defined(C2R_PROBE)", "#ifdef C2R_PROBE", "#ifndef C2R_PROBE", "#else", "#endif",
               "#define C2R_PROBE 1", "#undef C2R_PROBE", "#pragma unroll", "#pragma once")
_PROBE = "c2r-probe-"


def _line_starts(text: str) -> list[int]:
    """Offsets where a new line starts between two tokens of ordinary code: not inside a multi-line comment,
    string or directive (a line continued with a backslash), so an inserted line is a directive of its own.
    The first line stays first (it may carry the fixture's options)."""
    toks = tokenize(text)
    starts = []
    for k, t in enumerate(toks):
        if t.kind == "NL" and not t.pp and (k + 1 == len(toks) or not toks[k + 1].pp or toks[k + 1].src == "#"):
            starts.append(t.end)
    return sorted(set(starts)) or [len(text)]


def _insert(text: str, at: list[int], lines: list[str]) -> str:
    nl = "\r\n" if "\r\n" in text else "\n"
    out, pos = [], 0
    for n, (offset, line) in enumerate(sorted(zip(at, lines, strict=True))):
        out.append(text[pos:offset])
        out.append(f"{line} // {_PROBE}{n}{nl}")
        pos = offset
    out.append(text[pos:])
    return "".join(out)


_RUNTIME = '#include "hip/hip_runtime.h"'


def _without_probes(text: str) -> tuple[str, int]:
    """The text without the inserted lines and without the runtime include (whose place depends on the first
    directives of the file, which the probes may be), and how often that include occurs."""
    lines = [line for line in text.splitlines(keepends=True) if _PROBE not in line]
    runtime = [line for line in lines if line.rstrip("\r\n") == _RUNTIME]
    return "".join(line for line in lines if line.rstrip("\r\n") != _RUNTIME), len(runtime)


@pytest.mark.parametrize("src", CASES, ids=IDS)
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_directive_lines_between_lines_do_not_change_the_translation(src, data):
    text = read(src)
    starts = _line_starts(text)
    picks = data.draw(st.lists(st.sampled_from(starts), min_size=1, max_size=4), label="line starts")
    lines = data.draw(st.lists(st.sampled_from(_DIRECTIVES), min_size=len(picks), max_size=len(picks)),
                      label="directives")
    probed = _insert(text, picks, lines)
    want = translate(src, text)
    got = convert_source(probed, str(src.relative_to(GOLDEN)), options_for(text))
    assert type(got) is type(want)
    assert _without_probes(output_text(got, probed)) == _without_probes(output_text(want, text))


def test_call_after_endif_is_translated_and_gets_the_runtime_header():
    text = "int main() { float *d;\n#ifdef DEBUG\n  printf(\"x\");\n#endif\n  cudaFree(d);\n}\n"
    r = convert_source(text, "e.cu", options_for(""))
    assert isinstance(r, Translated)
    assert "  hipFree(d);\n" in r.text and "cudaFree" not in r.text
    assert r.text.startswith('#include "hip/hip_runtime.h"')


# Lines of the shapes real CUDA files mix (includes, kernels with shuffles and SIMD calls, launches, directives,
# cuBLAS, cooperative groups, textures): a second run over any mix of them must change nothing.
_LINES = [
    "#include <cuda_runtime.h>", "#include <cub/cub.cuh>", "#include <cuda_fp16.h>", "#include <cublas_v2.h>",
    "#include <cooperative_groups.h>", "#define WARP_SIZE 32", "#if defined(__CUDACC__)", "#endif",
    "#ifdef USE_X", "#else", "// a comment naming cudaMalloc", 'const char* s{n} = "cudaFree";',
    "__global__ void k{n}(unsigned* p) {{ p[0] = __vaddss2(p[0], p[1]); }}",
    "__global__ void w{n}(float* p) {{ float v = p[threadIdx.x]; v += __shfl_down_sync(0xffffffff, v, 16); "
    "__syncwarp(); p[0] = v; }}",
    "void h{n}(float* p, cudaStream_t s) {{ cudaMemcpyAsync(p, p, 4, cudaMemcpyDeviceToDevice, s); "
    "k{n}<<<1, 32, 0, s>>>((unsigned*)p); }}",
    "__device__ int lane{n}() {{ return threadIdx.x & 31; }}", "typedef cub::WarpReduce<int> R{n};",
    "__half hh{n} = __float2half(1.0f);", "cublasHandle_t hb{n}; void g{n}() {{ cublasCreate(&hb{n}); }}",
    "namespace cg = cooperative_groups;",
    "__global__ void c{n}() {{ cg::thread_block b = cg::this_thread_block(); b.sync(); }}",
    "__global__ void t{n}(cudaTextureObject_t tex, float* o) {{ o[0] = tex1Dfetch<float>(tex, 0); }}",
]
_OPTION_SETS = [Options(), Options(target_rocm="5.2"), Options(launch_syntax="ggl", fix_hazards=True),
                Options(roc=True)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_LINES), min_size=1, max_size=12))
def test_a_second_run_over_mixed_real_shapes_changes_nothing(lines: list[str]) -> None:
    # with --fix-hazards, the marker of a hazard on a file's first line was dropped where the runtime include is
    # inserted at the same point, and the second run added it (found by this property)
    text = "".join(line.format(n=i) + "\n" for i, line in enumerate(lines))
    for options in _OPTION_SETS:
        first = convert_source(text, "a.cu", options)
        once = first.text if isinstance(first, Translated) else text
        again = convert_source(once, "a.hip", options)
        assert not isinstance(again, Translated) or again.text == once, (options, text)
