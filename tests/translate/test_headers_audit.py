"""Every CUDA header is mapped for the target ROCm release or reported (issue 16 bug 2), and the bf16 names and
feature macros follow the target's headers (bug 8).

The header table is ``mapping/data/headers.csv``; where a toolkit or HIP install is present, the tests also
check it against the real files: every header of the installed CUDA toolkit, every HIP header the table names
for ROCm 5.2 in Debian's HIP 5.2.3, and a real hipcc compile.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cuda2rocm.mapping import load
from cuda2rocm.mapping.releases import newest_rocm
from cuda2rocm.model import Translated
from cuda2rocm.translate.api import convert_source
from cuda2rocm.translate.options import Options

TARGETS = ("5.2", "5.7", "6.0", "6.2", str(newest_rocm()))
CUDA_INCLUDE = Path("/usr/local/cuda/include")
HIP_INCLUDE = Path("/usr/include")  # Debian 12: hip/, hiprand/, rocrand/ under /usr/include
needs_hipcc = pytest.mark.skipif(shutil.which("hipcc") is None, reason="needs a real hipcc")


def _include(name: str, **options: object) -> tuple[str, set[str]]:
    """The translated include line and the rules reported for a file that only includes ``name``."""
    result = convert_source(f"#include <{name}>\n", "t.cu", Options(**options))  # type: ignore[arg-type]
    text = result.text if isinstance(result, Translated) else f"#include <{name}>\n"
    line = next((ln for ln in text.splitlines() if ln.startswith("#include") and "hip_runtime.h\"" not in ln), "")
    return line, {f.rule for f in getattr(result, "findings", ())}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("roc", [False, True])
def test_every_header_of_the_table_is_mapped_or_reported(target: str, roc: bool) -> None:
    unaccounted = []
    for entry in load().headers():
        want = entry.resolve(target, roc=roc or entry.library == "cudnn")
        line, rules = _include(entry.cuda, target_rocm=target, roc=roc)
        if want:
            if line != f"#include <{want}>":
                unaccounted.append(f"{entry.cuda}: {line} (want {want})")
        elif not (("C2R-A117" in rules and line == "")
                  or ("C2R-A107" in rules and line == f"#include <{entry.cuda}>")):
            # a file that uses nothing the header declares drops the include (C2R-A117), else keeps it (C2R-A107)
            unaccounted.append(f"{entry.cuda}: {line}, {sorted(rules)} (want dropped and C2R-A117, or C2R-A107)")
    assert not unaccounted


@pytest.mark.skipif(not CUDA_INCLUDE.is_dir(), reason="needs a CUDA toolkit's include directory")
def test_every_header_of_the_installed_cuda_toolkit_is_mapped_or_reported() -> None:
    """Every file of the toolkit's include tree (and of its cccl/ root, where CUDA 13 keeps CUB, Thrust and
    libcu++) as an include: translated, or kept with C2R-A107. Thrust headers are the exception by design:
    rocThrust ships Thrust's tree under the same names, so ``#include <thrust/sort.h>`` stays as it is."""
    names: set[str] = set()
    for base in (CUDA_INCLUDE, CUDA_INCLUDE / "cccl"):
        names.update(p.relative_to(base).as_posix() for p in base.rglob("*") if p.is_file())
    names = {n for n in names if not n.startswith(("cccl/", "Openacc/", "Openmp/", "thrust/"))
             or n.startswith("thrust/system/cuda/")}  # Openacc/Openmp: CUPTI's tool interfaces, not includes
    assert len(names) > 100
    silent = []
    for name in sorted(names):
        result = convert_source(f"#include <{name}>\n", "t.cu", Options(target_rocm="5.2"))
        if not isinstance(result, Translated) and "C2R-A107" not in {f.rule for f in result.findings}:  # type: ignore[union-attr]
            silent.append(name)
    assert not silent


@pytest.mark.skipif(not (HIP_INCLUDE / "hip" / "hip_version.h").is_file(), reason="needs HIP's headers")
def test_hip_headers_the_table_names_for_rocm_52_exist_in_hip_52() -> None:
    """For ROCm 5.2 every mapped HIP runtime header (and every hipRAND/rocRAND header, where installed) is a
    file of Debian 12's HIP 5.2.3: `hip/hip_surface_types.h` (no release has it) was the table's error."""
    missing = []
    for entry in load().headers():
        for roc in (False, True):
            name = entry.resolve("5.2", roc=roc)
            if not name or not (HIP_INCLUDE / name.split("/")[0]).is_dir():
                continue  # a library this machine does not have (hipBLAS, rocBLAS, ...)
            if not (HIP_INCLUDE / name).is_file():
                missing.append(f"{entry.cuda} -> {name}")
    assert not missing


def test_math_constants_follow_the_target() -> None:
    line, rules = _include("math_constants.h", target_rocm="6.2")
    assert line == "#include <hip/hip_math_constants.h>" and "C2R-A107" not in rules
    line, rules = _include("math_constants.h", target_rocm="5.2")
    assert line == "" and "C2R-A117" in rules  # HIP 5.2 has no such header, and nothing of it is used
    old = convert_source("#include <math_constants.h>\n__device__ float f() { return CUDART_INF_F; }\n", "t.cu",
                         Options(target_rocm="5.2"))
    # the constant comes from a header of ours (C2R-A130), so the include goes (C2R-A117)
    assert {(f.line, f.rule) for f in old.findings} >= {(1, "C2R-A117"), (2, "C2R-A130")}  # type: ignore[union-attr]
    assert "#define CUDART_INF_F __builtin_huge_valf()" in old.text  # type: ignore[union-attr]
    kept = convert_source("#include <math_constants.h>\n__device__ double f() { return CUDART_PIO2_HI; }\n", "t.cu",
                          Options(target_rocm="5.2"))
    assert {(f.line, f.rule) for f in kept.findings} >= {(1, "C2R-A107"), (2, "C2R-A103")}  # type: ignore[union-attr]


def test_a_local_header_named_like_a_cuda_header_is_the_projects(tmp_path: Path) -> None:
    (tmp_path / "math_constants.h").write_text("#define MY_PI 3.14f\n")
    source = tmp_path / "k.cu"
    source.write_text('#include "math_constants.h"\n__global__ void k(float* p) { p[0] = MY_PI; }\n')
    from cuda2rocm.translate.engine import translate_text

    result = translate_text(source.read_text(), str(source), Options(), source=source).result
    assert isinstance(result, Translated)
    assert '#include "math_constants.h"' in result.text
    assert "C2R-A107" not in {f.rule for f in result.findings}


RUNTIME_HEADERS = """#include <cuda_runtime.h>
#include <surface_types.h>
#include <texture_types.h>
#include <vector_functions.h>
#include <device_functions.h>
#include <sm_60_atomic_functions.h>
#include <library_types.h>
#include <cuda_fp16.hpp>
#include <curand_uniform.h>
#include <curand_normal.h>
__global__ void k(float4* o, curandState* s, cudaSurfaceObject_t surf, cudaTextureObject_t tex) {
  float4 v = make_float4(1.f, 2.f, 3.f, curand_uniform(s) + curand_normal(s));
  atomicAdd(&o[1].x, v.w);
  o[0] = v;
}
int main() { cudaDataType t = CUDA_R_32F; return t == CUDA_R_32F ? 0 : 1; }
"""


@needs_hipcc
@pytest.mark.hipcc
def test_cuda_runtime_and_curand_sub_headers_compile_with_hip_52(tmp_path: Path) -> None:
    result = convert_source(RUNTIME_HEADERS, "t.cu", Options(target_rocm="5.2", use_hip_data_types=True))
    assert isinstance(result, Translated)
    assert "#include <hip/surface_types.h>" in result.text and "#include <hiprand/hiprand_kernel.h>" in result.text
    assert "C2R-A107" not in {f.rule for f in result.findings}, result.findings
    source = tmp_path / "t.hip"
    source.write_text(result.text)
    done = subprocess.run(["hipcc", "--offload-arch=gfx90a", "-x", "hip", "-c", str(source), "-o",
                           str(tmp_path / "t.o")], capture_output=True, text=True, check=False,
                          env={"HIP_PLATFORM": "amd", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr


BF16 = """#include <cuda_bf16.h>
#if defined(__CUDA_BF16_TYPES_EXIST__)
__global__ void k(__nv_bfloat16* b, float* f) { b[0] = b[1]; f[0] = 1.0f; }
#else
#error "the bf16 path is compiled out"
#endif
__global__ void c(__nv_bfloat16* b, float* f) { b[0] = __float2bfloat16(f[0]); f[1] = __bfloat162float(b[1]); }
"""


@pytest.mark.parametrize("target", ["6.0", "6.2", str(newest_rocm())])
def test_bf16_maps_to_hip_bf16_where_it_exists(target: str) -> None:
    result = convert_source(BF16, "t.cu", Options(target_rocm=target))
    assert isinstance(result, Translated)
    assert "#include <hip/hip_bf16.h>" in result.text
    assert "#if defined(HIP_INCLUDE_HIP_HIP_BF16_H)" in result.text  # hip_bf16.h's guard: true once included
    assert "__global__ void c(__hip_bfloat16* b, float* f) { b[0] = __float2bfloat16(f[0]); " \
           "f[1] = __bfloat162float(b[1]); }" in result.text
    assert "hip_bfloat16*" not in result.text.replace("__hip_bfloat16*", "")  # one bf16 type, not two
    assert not [f for f in result.findings if f.rule.startswith("C2R-A")], result.findings


def test_bf16_before_rocm_60_uses_the_legacy_class_consistently() -> None:
    result = convert_source(BF16, "t.cu", Options(target_rocm="5.2"))
    assert isinstance(result, Translated)
    assert "#include <hip/hip_bfloat16.h>" in result.text and "#if defined(_HIP_BFLOAT16_H_)" in result.text
    assert "__hip_bfloat16" not in result.text
    found = {(f.line, f.rule, f.message.split()[0]) for f in result.findings}
    assert (2, "C2R-A105", "__CUDA_BF16_TYPES_EXIST__") in found
    assert (7, "C2R-A103", "__float2bfloat16") in found and (7, "C2R-A103", "__bfloat162float") in found
    assert not any(rule == "C2R-K805" for _, rule, _ in found)  # the guard is translated, not left false


@needs_hipcc
@pytest.mark.hipcc
def test_bf16_feature_test_keeps_the_bf16_path_live_with_hip_52(tmp_path: Path) -> None:
    result = convert_source(BF16.split("__global__ void c")[0], "t.cu", Options(target_rocm="5.2"))
    assert isinstance(result, Translated)
    source = tmp_path / "t.hip"
    source.write_text(result.text)
    done = subprocess.run(["hipcc", "--offload-arch=gfx90a", "-x", "hip", "-c", str(source), "-o",
                           str(tmp_path / "t.o")], capture_output=True, text=True, check=False,
                          env={"HIP_PLATFORM": "amd", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr  # the #error branch is not taken: the guard is hipcc's header's
