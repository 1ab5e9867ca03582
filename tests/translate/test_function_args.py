"""Arguments HIP types differently (issue 16, families 4 and 5): functions passed where HIP declares
``const void*`` get ``reinterpret_cast<const void*>(...)`` whatever names them (``kernel_args.csv``), and device
symbols become ``HIP_SYMBOL(x)`` where HIP has a ``const T&`` overload, ``&x`` where it has only ``const void*``
(``symbol_args.csv``). The golden outputs compile with Debian's hipcc (HIP 5.2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cuda2rocm.model import Translated
from cuda2rocm.toolchain.discover import find_hipcc
from cuda2rocm.translate import data
from cuda2rocm.translate.api import convert_source
from cuda2rocm.translate.options import Options

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "runtime"
HIPCC = find_hipcc()


def _out(src: str) -> str:
    r = convert_source(src, "t.cu", Options(target_rocm="5.2"))
    assert isinstance(r, Translated)
    return r.text


def _call(cuda: str, position: int, argument: str) -> str:
    args = [f"a{k}" for k in range(8)]
    args[position] = argument
    return f"{cuda}({', '.join(args)});"


FUNCTION_FORMS = ["plain", "fill<float, 4>", "fill<double, 2 * 3>", "chosen", "&plain", "ns::fill<int, 1>"]
CAST_FORMS = ["(void*)plain", "(const void*)chosen", "reinterpret_cast<const void*>(plain)", "vp", "cvp"]
HEAD = ("template <typename T, int N> __global__ void fill(T* p) {}\n__global__ void plain(float* p) {}\n"
        "namespace ns { template <typename T, int N> __global__ void fill(T* p) {} }\n")


@pytest.mark.parametrize("cuda", sorted(data.kernel_args()))
@pytest.mark.parametrize("form", FUNCTION_FORMS)
def test_every_function_form_is_cast(cuda: str, form: str) -> None:
    position = data.kernel_args()[cuda]
    text = _out(f"{HEAD}void g(void (*chosen)(float*)) {{ {_call(cuda, position, form)} }}\n")
    assert f"reinterpret_cast<const void*>({form})" in text


@pytest.mark.parametrize("cuda", sorted(data.kernel_args()))
@pytest.mark.parametrize("form", [*CAST_FORMS, "nullptr"])
def test_a_cast_argument_is_left_alone(cuda: str, form: str) -> None:
    position = data.kernel_args()[cuda]
    params = "void (*chosen)(float*), void* vp, const void *cvp"
    text = _out(f"{HEAD}void g({params}) {{ {_call(cuda, position, form)} }}\n")
    assert f"({form}" in text or f", {form}" in text
    assert f"reinterpret_cast<const void*>({form})" not in text


def test_occupancy_calls_need_no_cast() -> None:
    """HIP 5.2 overloads hipOccupancyMaxActiveBlocksPerMultiprocessor for any ``T f``: nothing to add."""
    call = "cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, fill<float, 4>, 64, 0);"
    text = _out(f"{HEAD}void g(int* n) {{\n  {call}\n}}\n")
    assert "hipOccupancyMaxActiveBlocksPerMultiprocessor(n, fill<float, 4>, 64, 0)" in text


def test_template_commas_do_not_split_arguments_but_comparisons_do() -> None:
    text = _out(f"{HEAD}void g(void** a, int n, int m, int q, int r, cudaStream_t s) {{\n"
                "  cudaLaunchCooperativeKernel(fill<float, 4>, dim3(1), dim3(1), a);\n"
                "  cudaLaunchCooperativeKernel(plain, dim3(1), dim3(1), a, n < m, q > r);\n}\n")
    assert "(reinterpret_cast<const void*>(fill<float, 4>), dim3(1), dim3(1), a, 0, 0);" in text
    assert "(reinterpret_cast<const void*>(plain), dim3(1), dim3(1), a, n < m, q > r);" in text


SYMBOLS = "__constant__ float c_tab[4];\n__device__ int d_n, d_v[2] = {1, 2};\n__managed__ double m_x;\n"


@pytest.mark.parametrize("cuda", sorted(data.symbol_args()))
@pytest.mark.parametrize("symbol", ["c_tab", "d_n", "d_v", "m_x"])
def test_device_symbols_follow_the_hip_declaration(cuda: str, symbol: str) -> None:
    position, overloaded = data.symbol_args()[cuda]
    text = _out(f"{SYMBOLS}void g() {{ {_call(cuda, position, symbol)} }}\n")
    want = f"HIP_SYMBOL({symbol})" if overloaded else f"&{symbol}"
    assert f"{want}," in text or f"{want})" in text


@pytest.mark.parametrize("cuda", sorted(data.symbol_args()))
def test_other_symbol_arguments_are_left_alone(cuda: str) -> None:
    position, _ = data.symbol_args()[cuda]
    text = _out(f"{SYMBOLS}__device__ float scale(float v) {{ return v; }}\n"
                f"void g(const void* p) {{ {_call(cuda, position, 'p')} }}\n")
    assert "HIP_SYMBOL(p)" not in text and "&p" not in text and "HIP_SYMBOL(scale)" not in text


def test_graph_symbol_calls_are_listed_without_template() -> None:
    graph = {k: v for k, v in data.symbol_args().items() if k.startswith("cudaGraph")}
    assert len(graph) == 6 and not any(overloaded for _, overloaded in graph.values())


@pytest.mark.hipcc
@pytest.mark.skipif(HIPCC is None, reason="hipcc not installed")
@pytest.mark.parametrize("name", ["function_arguments", "symbol_graph_nodes", "symbols"])
def test_golden_outputs_compile_with_hip_52(name: str, tmp_path: Path) -> None:
    from cuda2rocm.toolchain.compile import compile_hip

    result = compile_hip(GOLDEN / f"{name}.hip", "gfx90a", ("-x", "hip"), output=tmp_path / f"{name}.o")
    assert result.ok, result.stderr


@pytest.mark.parametrize("src", [
    "__global__ void k() {}\nvoid f() { cudaFuncSetAttribute(\n#if A\n    k\n#else\n    k\n#endif\n"
    "    , cudaFuncAttributeMaxDynamicSharedMemorySize, 1); }\n",
    "void f(float* p, float* q) { cudaHostAlloc(\n#if A\n    &p\n#else\n    &q\n#endif\n    , 4, 0); }\n",
])
def test_an_argument_holding_directives_gets_no_cast(src: str) -> None:
    # the cast was written around the directive lines: reinterpret_cast<const void*>(#if A ... #endif) breaks both
    # directives (found by fuzzing the argument fixups with directives inside calls)
    out = _out(src)
    assert "reinterpret_cast" not in out and "\n#if A\n" in out and "\n#endif\n" in out
