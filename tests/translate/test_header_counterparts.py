"""Translated files that failed to compile because of headers and CUDA version macros (issue 29, classes 1 and 4b).

- A CUDA header without a counterpart in the target release is dropped when the file uses nothing it declares
  (``translate/data/header_names.csv``, C2R-A117), and kept and reported as before when it does (C2R-A107).
- ``math_constants.h`` before ROCm 5.3 (and its double constants before 5.7): the constants the file uses come from
  ``cuda2rocm_math_constants.h`` (``translate/data/math_constants.csv``), inserted into the file (C2R-A130).
- CUDA version macros compared in directives are written as macros of ours that a block near the top defines: the
  CUDA number under nvcc, the CUDA release the tables reach under hip-clang (C2R-A110).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from cuda2rocm.mapping import load
from cuda2rocm.mapping.version import parse_version
from cuda2rocm.model import Severity, Translated
from cuda2rocm.translate import data
from cuda2rocm.translate.api import convert_source
from cuda2rocm.translate.options import Options

ISSUE = """#include <cuda_runtime.h>
#include <cuda_device_runtime_api.h>
#include <math_constants.h>
#if CUDART_VERSION < 9000
#error "need CUDA 9"
#endif
__global__ void k(float* p) { p[threadIdx.x] = CUDART_PI_F; }
"""


def _convert(src: str, target: str = "5.2") -> Translated:
    result = convert_source(src, "t.cu", Options(target_rocm=target))
    assert isinstance(result, Translated)
    return result


def _rules(result: Translated) -> dict[str, list[tuple[int, Severity, str]]]:
    found: dict[str, list[tuple[int, Severity, str]]] = {}
    for f in result.findings:
        found.setdefault(f.rule, []).append((f.line, f.severity, f.message))
    return found


def test_a_header_nothing_of_which_is_used_is_dropped() -> None:
    r = _convert("#include <cuda_runtime.h>\n#include <cuda_device_runtime_api.h>\n__global__ void k() {}\n")
    assert "cuda_device_runtime_api.h" not in r.text
    assert r.text.splitlines()[1] == ""  # the line stays, empty: later lines keep their numbers
    ((line, severity, message),) = _rules(r)["C2R-A117"]
    assert (line, severity) == (2, Severity.LOW) and "cuda_device_runtime_api.h" in message
    assert "C2R-A107" not in _rules(r)


@pytest.mark.parametrize(("header", "use"), [
    ("cuda_occupancy.h", "cudaOccDeviceProp prop;"),
    ("cuda_device_runtime_api.h", "__device__ void* f() { return cudaGetParameterBuffer(64, 64); }"),
    ("nvml.h", "nvmlReturn_t r = nvmlInit();"),
    ("mma.h", "using namespace nvcuda;"),
])
def test_a_header_whose_names_are_used_is_kept_and_reported(header: str, use: str) -> None:
    r = convert_source(f"#include <{header}>\n{use}\n", "t.cu", Options(target_rocm="5.2"))
    assert f"#include <{header}>" in getattr(r, "text", f"#include <{header}>")
    assert [(f.line, f.severity) for f in r.findings if f.rule == "C2R-A107"] == [(1, Severity.HIGH)]
    assert "C2R-A117" not in {f.rule for f in r.findings}


def test_math_constants_before_rocm_5_3_come_from_a_header_of_ours() -> None:
    r = _convert("#include <math_constants.h>\n__device__ float f() { return CUDART_PI_F * CUDART_SQRT_TWO_F; }\n"
                 "#define HALF_PI (CUDART_PI_F / 2)\n")
    defines = re.findall(r"^#define (CUDART_\w+) (.*)$", r.text, re.MULTILINE)
    assert defines == [("CUDART_PI_F", "3.14159274f"), ("CUDART_SQRT_TWO_F", "1.41421354f")]  # the used ones
    assert "#include <math_constants.h>" not in r.text
    rules = _rules(r)
    assert [line for line, *_ in rules["C2R-A117"]] == [1]
    assert {line for line, *_ in rules["C2R-A130"]} == {2, 3}
    assert "C2R-A103" not in rules and "C2R-A107" not in rules


def test_between_5_3_and_5_7_only_the_double_constants_come_from_our_header() -> None:
    r = _convert("#include <math_constants.h>\n__device__ double f() { return CUDART_PI_F + CUDART_PI; }\n",
                 target="5.4")
    assert "#include <hip/hip_math_constants.h>" in r.text
    assert "return HIP_PI_F + CUDART_PI;" in r.text
    assert re.findall(r"^#define (CUDART_\w+)", r.text, re.MULTILINE) == ["CUDART_PI"]


def test_a_constant_we_do_not_define_keeps_the_header_reported() -> None:
    r = convert_source("#include <math_constants.h>\n__device__ double f() { return CUDART_PIO2_HI; }\n", "t.cu",
                       Options(target_rocm="5.2"))
    assert {(f.line, f.rule) for f in r.findings} >= {(1, "C2R-A107"), (2, "C2R-A103")}


def test_every_header_without_a_counterpart_in_some_release_has_its_names() -> None:
    releases = [str(v) for v in sorted({parse_version(t) for t in ("5.0", "5.1", "5.2", "5.4", "6.0", "6.1", "7.0")})]
    missing = []
    for entry in load().headers():
        roc = entry.library == "cudnn"
        if any(not entry.resolve(t, roc=roc) for t in releases) and entry.cuda not in data.header_names():
            missing.append(entry.cuda)
    assert not missing
    math = data.header_names()["math_constants.h"]
    assert all(math.declares(name) for name in data.math_constants())
    assert not math.declares("CUDART_VERSION")  # cuda_runtime_api.h's, which translates


def test_every_constant_is_its_exact_value_rounded_to_its_type() -> None:
    mpmath = pytest.importorskip("mpmath")
    numpy = pytest.importorskip("numpy")
    mpmath.mp.prec = 300
    special = {"inf": ("__builtin_huge_valf()", "__builtin_huge_val()"), "nan": ('__builtin_nanf("")',
               '__builtin_nan("")'), "-0": ("(-0.0f)", "(-0.0)")}
    rows = [r for r in data._rows("math_constants.csv")]
    assert len(rows) == len(data.math_constants())
    for row in rows:
        name, meaning, value = row["cuda"], row["meaning"], row["value"]
        single = name.endswith("_F")
        assert load().lookup(name) is not None, name  # a CUDART_* name of the tables
        if meaning in special:
            assert value == special[meaning][0 if single else 1], name
            continue
        exact = eval(re.sub(r"\d+", lambda m: f"mpf({m.group()})", meaning),  # our own table's expressions
                     {"pi": mpmath.pi, "log": mpmath.log, "sqrt": mpmath.sqrt, "mpf": mpmath.mpf})
        if single:
            assert value.endswith("f"), name
            got = numpy.float32(value[:-1])
            down, up = numpy.float32(-numpy.inf), numpy.float32(numpy.inf)
            below, above = numpy.nextafter(got, down), numpy.nextafter(got, up)
        else:
            got = numpy.float64(value)
            below, above = numpy.nextafter(got, -numpy.inf), numpy.nextafter(got, numpy.inf)
        error = abs(mpmath.mpf(float(got)) - exact)
        assert error <= abs(mpmath.mpf(float(below)) - exact), name  # nearest of the type's values
        assert error <= abs(mpmath.mpf(float(above)) - exact), name


def test_a_compared_version_macro_takes_the_modern_branch() -> None:
    r = _convert(ISSUE)
    assert "#if CUDA2ROCM_CUDART_VERSION < 9000" in r.text
    assert ("#ifndef CUDA2ROCM_CUDART_VERSION\n#if defined(__HIP__) && !defined(CUDART_VERSION)\n"
            "#define CUDA2ROCM_CUDART_VERSION 12060\n") in r.text
    assert not re.search(r"^#define CUDART_VERSION", r.text, re.MULTILINE)  # hipSPARSE reads it as NVIDIA
    assert r.text.index("CUDA2ROCM_CUDA_VERSION_H") < r.text.index("#if CUDA2ROCM_CUDART_VERSION")
    ((line, severity, message),) = _rules(r)["C2R-A110"]
    assert (line, severity) == (4, Severity.MEDIUM) and "CUDA2ROCM_CUDART_VERSION" in message and "12060" in message
    once = r.text
    again = convert_source(once, "again.hip", Options(target_rocm="5.2"))
    assert getattr(again, "text", once) == once  # a second run leaves the block and the rewritten test alone


def test_the_block_defines_each_compared_macro_once() -> None:
    r = _convert("#if CUDA_VERSION >= 11000 && __CUDACC_VER_MAJOR__ >= 11\nint a;\n#endif\n"
                 "#if CUDA_VERSION >= 12000\nint b;\n#endif\n__global__ void k() {}\n")
    assert r.text.count("#define CUDA2ROCM_CUDA_VERSION 12060") == 1
    assert r.text.count("#define CUDA2ROCM_CUDACC_VER_MAJOR 12") == 1
    assert r.text.count("CUDA2ROCM_CUDA_VERSION_H") == 2  # one block


@pytest.mark.parametrize("src", [
    # a platform switch whose HIP branch the project wrote: its CUDA-only branch stays as written
    "#if defined(__HIPCC__)\n#define OLD 0\n#elif CUDART_VERSION < 9000\n#define OLD 1\n#endif\n"
    "__global__ void k() {}\n",
    "#ifndef __HIP_PLATFORM_AMD__\n#if CUDART_VERSION < 9000\n#error old\n#endif\n#endif\n__global__ void k() {}\n",
    # the file defines the macro itself
    "#ifndef CUDART_VERSION\n#define CUDART_VERSION 11000\n#endif\n#if CUDART_VERSION < 9000\n#error old\n#endif\n"
    "__global__ void k() {}\n",
    # a value used in code: HIP has no such number there
    "__global__ void k(int* p) { p[0] = __CUDACC_VER_MAJOR__ >= 11; }\n",
])
def test_no_block_where_the_file_decides_itself(src: str) -> None:
    r = convert_source(src, "t.cu", Options(target_rocm="5.2"))
    assert "CUDA2ROCM_" not in getattr(r, "text", "")


def _hipcc() -> str | None:
    from cuda2rocm.toolchain.discover import find_hipcc

    return find_hipcc()


@pytest.mark.hipcc
@pytest.mark.skipif(_hipcc() is None, reason="hipcc not installed")
def test_the_rocm_5_2_translation_compiles(tmp_path: Path) -> None:
    """The issue's file, plus checks that hipcc took the modern branch and got pi, compiles for gfx90a."""
    from cuda2rocm.toolchain.discover import amd_env

    src = ISSUE + ("#if __CUDACC_VER_MAJOR__ >= 11\n#define MODERN 1\n#else\n#define MODERN 0\n#endif\n"
                   'static_assert(MODERN == 1, "the branch for a modern CUDA");\n'
                   'static_assert(CUDART_PI_F == 3.14159265358979f, "pi rounded to float");\n'
                   'static_assert(CUDART_LN2 > 0.69314718055994 && CUDART_LN2 < 0.69314718055995, "ln 2");\n')
    r = _convert(src)
    out = tmp_path / "a.hip"
    out.write_text(r.text)
    proc = subprocess.run([str(_hipcc()), "--offload-arch=gfx90a", "-c", str(out), "-o", str(tmp_path / "a.o")],
                          capture_output=True, text=True, env=amd_env(), check=False, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]


@pytest.mark.hipcc
@pytest.mark.skipif(_hipcc() is None, reason="hipcc not installed")
def test_a_header_and_its_includer_both_get_their_definitions(tmp_path: Path) -> None:
    """Each file's blocks define what that file uses; a header's block must not hide its includer's."""
    from cuda2rocm.toolchain.discover import amd_env

    header = ("#pragma once\n#include <math_constants.h>\n#if CUDA_VERSION >= 11000\n"
              "#define HALF_PI (CUDART_PI_F / 2)\n#endif\n")
    main = ('#include "common.cuh"\n#include <math_constants.h>\n#if CUDART_VERSION < 11000\n#error old\n#endif\n'
            "__global__ void k(float* p) { p[0] = HALF_PI * CUDART_LN2_F; }\n")
    (tmp_path / "common.cuh").write_text(_convert(header).text)
    (tmp_path / "k.hip").write_text(_convert(main).text)
    proc = subprocess.run([str(_hipcc()), "--offload-arch=gfx90a", "-c", str(tmp_path / "k.hip"), "-o",
                           str(tmp_path / "k.o")], capture_output=True, text=True, env=amd_env(), check=False,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
