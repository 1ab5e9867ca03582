"""``--launch-syntax ggl`` (issue 16, family 3): every launch form becomes ``hipLaunchKernelGGL(kernel, grid, block,
shared, stream, args...)`` with five parameters before the kernel's arguments (defaults 0, 0 filled in), templated
kernels inside ``HIP_KERNEL_NAME(...)``, and a configuration convert cannot count is kept and reported (C2R-A116).
The golden output (tests/golden/launch/ggl_forms) compiles with Debian's hipcc."""

from __future__ import annotations

from pathlib import Path

import pytest

from cuda2rocm.model import Translated
from cuda2rocm.source.structure import match_brackets, split_args
from cuda2rocm.source.tokens import IDENT, tokenize
from cuda2rocm.toolchain.discover import find_hipcc
from cuda2rocm.translate.api import convert_source
from cuda2rocm.translate.options import Options
from cuda2rocm.translate.passes.arguments import join_template_arguments

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "launch"
HEAD = """#define GRID(n) dim3(((n) + 255) / 256)
#define BLOCK 256
#define CFG2 1, 64
#define CFG3 1, 64, 0
#define CFG4 1, 64, 0, s
template <typename T, int N> struct vec { T v[N]; };
template <typename T, int N> struct holder { static const int value = N; };
template <typename T, int N> __global__ void kt(T* p, int n) {}
template <typename T> __global__ void k1(T* p, int n) {}
__global__ void k(float* p, int n) {}
"""
KERNELS = {"k": False, "kt<float, 4>": True, "k1<vec<float, 2>>": True, "k1<float>": True}
CONFIGS = {"1, 2": 2, "GRID(n), BLOCK": 2, "dim3(n, 2), dim3(16, 16), 0": 3, "n, 64, 128, s": 4,
           "holder<int, 2>::value, 64": 2, "n > 0 ? n : 1, 64": 2, "(n + 255) / 256, 256, 0, s": 4, "CFG2": 2,
           "CFG3": 3, "CFG4": 4, " dim3(n), dim3(64), 0, s ": 4}
ARGS = ["p, n", "p, n > 2 ? 1 : 0", "nullptr, holder<int, 3>::value"]


def _ggl_calls(text: str) -> list[list[str]]:
    toks = tokenize(text)
    pairs = match_brackets(toks)
    calls = []
    for i, tok in enumerate(toks):
        if tok.kind == IDENT and tok.src == "hipLaunchKernelGGL" and not tok.pp:
            args = join_template_arguments(toks, split_args(toks, i + 1, pairs))
            calls.append(["".join(t.src for t in toks[a:b]).strip() for a, b in args])
    return calls


@pytest.mark.parametrize("kernel", sorted(KERNELS))
@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("args", ARGS)
def test_every_launch_form_gets_five_launch_parameters(kernel: str, config: str, args: str) -> None:
    src = f"{HEAD}void f(float* p, int n, cudaStream_t s) {{\n  {kernel}<<<{config}>>>({args});\n}}\n"
    r = convert_source(src, "t.cu", Options(launch_syntax="ggl"))
    assert isinstance(r, Translated)
    assert "<<<" not in r.text.split("void f", 1)[1]
    (call,) = _ggl_calls(r.text)
    (own,) = _ggl_calls(f"hipLaunchKernelGGL({args});")
    macro = CONFIGS[config] - 1 if config.startswith("CFG") else 0  # CFG3 stands for three of the five
    assert len(call) == 5 - macro + len(own) and call[5 - macro:] == own
    assert call[0] == (f"HIP_KERNEL_NAME({kernel})" if KERNELS[kernel] else kernel)
    defaults = {2: ["0", "0"], 3: ["0"], 4: []}[CONFIGS[config]]
    assert call[5 - macro - len(defaults):5 - macro] == defaults


def test_a_configuration_it_cannot_count_is_kept_and_reported() -> None:
    src = ('#include "cfg.h"\n__global__ void k(float* p) {}\n#define CFG_S(s) 1, 64, 0, s\n'
           "void f(float* p, cudaStream_t s) { k<<<LAUNCH_CFG>>>(p); k<<<CFG_S(s)>>>(p); }\n")
    r = convert_source(src, "t.cu", Options(launch_syntax="ggl"))
    assert isinstance(r, Translated)
    assert "k<<<LAUNCH_CFG>>>(p)" in r.text and "k<<<CFG_S(s)>>>(p)" in r.text
    found = [f for f in r.findings if f.rule == "C2R-A116"]
    assert [f.line for f in found] == [4, 4] and "<<<LAUNCH_CFG>>>" in found[0].message


@pytest.mark.hipcc
@pytest.mark.skipif(find_hipcc() is None, reason="hipcc not installed")
def test_golden_ggl_forms_compile_with_hip_52(tmp_path: Path) -> None:
    from cuda2rocm.toolchain.compile import compile_hip

    result = compile_hip(GOLDEN / "ggl_forms.hip", "gfx90a", ("-x", "hip"), output=tmp_path / "g.o")
    assert result.ok, result.stderr


@pytest.mark.parametrize("src", ["k<<<a, k2<<<1, 2>>>()>>>(x);", "d<<<<<<,>>>()", "k<<<g, (x<<<1, 2)>>>(a);"])
def test_a_launch_inside_another_launchs_configuration_is_no_internal_error(src: str) -> None:
    # malformed: both <<< took the inner >>> as theirs and their edits overlapped (found by fuzzing)
    r = convert_source(src, "t.cu", Options(launch_syntax="ggl"))
    assert isinstance(r, Translated), r


@pytest.mark.parametrize(("src", "callee"), [
    ("void f(void (*fp)(int)) { (*fp)<<<1, 2>>>(3); }", "(*fp)"), ("void f() { ks[0]<<<1, 2>>>(3); }", "ks[0]"),
    ("void f() { s.k<<<1, 2>>>(3); }", "s.k"), ("void f() { a->b.k<<<1, 2>>>(3); }", "a->b.k"),
    ("void f() { (<<<1, 2>>>()); }", ""),
])
def test_a_launch_through_no_kernel_name_is_kept_and_reported(src: str, callee: str) -> None:
    # hipLaunchKernelGGL( was inserted inside the callee: (*fphipLaunchKernelGGL(), ...; found by fuzzing, where a
    # launch without a callee (__ballot_sync(<<<,>>>())) was an internal error with --fix-hazards
    for options in (Options(launch_syntax="ggl"), Options(launch_syntax="ggl", fix_hazards=True)):
        r = convert_source(src, "t.cu", options)
        assert isinstance(r, Translated) and "hipLaunchKernelGGL" not in r.text and "<<<1, 2>>>" in r.text
        found = [f.message for f in r.findings if f.rule == "C2R-A116"]
        assert len(found) == 1 and (f"through {callee}:" in found[0] if callee else "without a kernel" in found[0])


def test_a_launch_in_an_argument_a_fallback_drops_is_kept() -> None:
    # __shfl_sync -> __shfl drops the lane mask; dropping a mask that is a launch removed text the launch pass
    # rewrote: overlapping edits, an internal error (malformed code, found by fuzzing)
    r = convert_source("__shfl_sync(k<<<1, 2>>>(), 1, 2)", "t.cu", Options(launch_syntax="ggl", target_rocm="6.0"))
    assert isinstance(r, Translated) and "hipLaunchKernelGGL(k, dim3(1), dim3(2), 0, 0)" in r.text
    # nor one whose callee spans arguments (k<,> splits at its comma)
    r = convert_source("__shfl_sync( k<,><<<,{}>>>())", "t.cu", Options(launch_syntax="ggl", target_rocm="6.0"))
    assert isinstance(r, Translated), r


def test_an_empty_configuration_is_kept_and_reported() -> None:
    # k<<<>>>() has no configuration argument: reading the first one for the report was an IndexError (fuzzing)
    r = convert_source("__global__ void k() {}\nvoid f() { k<<<>>>(); }\n", "t.cu", Options(launch_syntax="ggl"))
    assert isinstance(r, Translated) and "k<<<>>>();" in r.text
    assert [f.message for f in r.findings if f.rule == "C2R-A116"] == [
        "launch of k: its configuration <<<>>> is not 2 to 4 parameters convert can count; kept as <<<...>>> "
        "(hipcc accepts it)"]


@pytest.mark.parametrize("src", [
    "__global__ void k(int) {}\nvoid f() {\n  k<<<1,\n#if FAST\n  64\n#else\n  32\n#endif\n  >>>(2);\n}\n",
    "__global__ void k(int) {}\nvoid f() {\n  k<<<1, 2>>>(\n#ifdef A\n  1\n#else\n  2\n#endif\n  );\n}\n",
])
def test_a_launch_with_a_directive_inside_is_kept_and_reported(src: str) -> None:
    # hipLaunchKernelGGL is a macro: directives among a macro's arguments are undefined behaviour in C++ (clang
    # warns), where <<<...>>> is a plain expression hipcc compiles (found by fuzzing)
    r = convert_source(src, "t.cu", Options(launch_syntax="ggl"))
    assert "hipLaunchKernelGGL" not in getattr(r, "text", src) and "<<<" in getattr(r, "text", src)
    found = [f.message for f in r.findings if f.rule == "C2R-A116"]
    assert len(found) == 1 and "preprocessor directive" in found[0]
