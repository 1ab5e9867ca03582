"""Inline must-change / must-not-change cases and the findings each kind of problem produces."""

from __future__ import annotations

import pytest

from cuda2rocm.model import Failed, Severity, Skipped, Translated, Unchanged
from cuda2rocm.translate.api import convert_source
from cuda2rocm.translate.options import Options


def out(src: str, **kw: object) -> str:
    r = convert_source(src, "t.cu", Options(**kw))  # type: ignore[arg-type]
    return r.text if isinstance(r, Translated) else src


MUST_CHANGE = [
    pytest.param("void f(void** p) { cudaMalloc(p, 4); }\n", "hipMalloc(p, 4)", {}, id="call"),
    pytest.param("#define ALLOC(p) cudaMalloc(p, 4)\n", "#define ALLOC(p) hipMalloc(p, 4)", {}, id="macro body"),
    pytest.param("#include <cuda_runtime.h>\n", "#include <hip/hip_runtime.h>", {}, id="angle include"),
    pytest.param('#include "cuda_runtime.h"\n', '#include "hip/hip_runtime.h"', {}, id="quoted include"),
    pytest.param("int f() { return ::cudaDeviceSynchronize(); }\n", "::hipDeviceSynchronize()", {}, id="global ::"),
    pytest.param("cudaStream_t s;\n", "hipStream_t s;", {}, id="type"),
    pytest.param("const cudaStream_t s = 0;\n", "const hipStream_t s", {}, id="type after const"),
    pytest.param("using namespace cub;\n", "using namespace hipcub;", {}, id="using namespace"),
    pytest.param("auto p = thrust::cuda::par;\n", "thrust::hip::par", {}, id="thrust policy"),
    pytest.param("__device__ float f(float v) { return __shfl_down_sync(0xffffffff, v, 1); }\n",
                 "__shfl_down(v, 1)", {"target_rocm": "5.2"}, id="shfl fallback drops mask"),
    pytest.param("__device__ unsigned f(int v) { return __ballot_sync(mask(), v); }\n",
                 "__ballot(v)", {"target_rocm": "5.2"}, id="ballot fallback drops call mask"),
    pytest.param("cublasHandle_t h;\n", "rocblas_handle h;", {"roc": True}, id="roc"),
    pytest.param("cudnnHandle_t h;\n", "miopenHandle_t h;", {}, id="cudnn to miopen"),
    pytest.param("void g() { k<<<1, 2>>>(); }\n", "hipLaunchKernelGGL(k, dim3(1), dim3(2), 0, 0)",
                 {"launch_syntax": "ggl"}, id="ggl no args"),
    pytest.param("cudaDataType t = CUDA_R_16F;\n", "hipblasDatatype_t t = HIPBLAS_R_16F;", {"target_rocm": "5.7"},
                 id="datatype before 6.0"),
    pytest.param("cudaDataType t = CUDA_R_16F;\n", "hipDataType t = HIP_R_16F;", {"target_rocm": "6.0"},
                 id="datatype from 6.0"),
    pytest.param("cudaDataType t = CUDA_R_16F;\n", "hipDataType t = HIP_R_16F;", {"use_hip_data_types": True},
                 id="hip datatype"),
]


@pytest.mark.parametrize(("src", "want", "kw"), MUST_CHANGE)
def test_must_change(src, want, kw):
    assert want in out(src, **kw)


MUST_NOT_CHANGE = [
    pytest.param("// cudaMalloc(p)\nint x;\n", id="line comment"),
    pytest.param("/* cudaFree(p) */ int x;\n", id="block comment"),
    pytest.param('const char* s = "cudaMalloc";\n', id="string"),
    pytest.param('const char* s = R"x(cudaMalloc "q")x";\n', id="raw string"),
    pytest.param("int f(S s) { return s.cudaMalloc + s->cudaFree; }\n", id="members"),
    pytest.param("int f() { return mine::cudaMalloc(); }\n", id="user namespace"),
    pytest.param("struct W { int cudaMalloc; };\n", id="declared member"),
    pytest.param("int cub = 3; int f() { return cub; }\n", id="variable named like a namespace"),
    pytest.param("int mycudaMalloc(); int cudaMallocX;\n", id="look-alike identifiers"),
    pytest.param("#include <vector>\n#include <thrust/device_vector.h>\n", id="headers without twins"),
    pytest.param("__device__ float f(float v) { return __shfl_down_sync(0xffffffff, v, 1); }\n",
                 id="shfl kept on new ROCm"),
]


@pytest.mark.parametrize("src", MUST_NOT_CHANGE)
def test_must_not_change(src):
    assert out(src, target_rocm="6.4").endswith(src)  # only the hip_runtime include may be prepended


def rules_of(src: str, **kw: object) -> list[str]:
    r = convert_source(src, "t.cu", Options(hazards=False, **kw))  # type: ignore[arg-type]
    return [f.rule for f in getattr(r, "findings", ())]


@pytest.mark.parametrize(("src", "kw", "rule"), [
    ("void f(double* d) { cudaSetDoubleForDevice(d); }\n", {}, "C2R-A101"),
    ("void f() { cuCtxCreate(0, 0, 0); }\n", {}, "C2R-A102"),
    ("void f(void** p) { cudaMallocAsync(p, 1, 0); }\n", {"target_rocm": "5.1"}, "C2R-A103"),
    ("void f() { cudaGraphExecNodeSetParams(0, 0, 0); }\n", {"target_rocm": "6.3"}, "C2R-A104"),
    ("__device__ float f(float v) { return __shfl_down_sync(~0u, v, 1); }\n", {"target_rocm": "5.2"}, "C2R-A105"),
    ("void f() { cudaBrandNewThing(); }\n", {}, "C2R-A106"),
    ("#include <cuda_egl_interop.h>\ncudaEglFrame frame;\n", {}, "C2R-A107"),
    ("#include <mma.h>\nusing namespace nvcuda;\n", {}, "C2R-A107"),
    ("#include <mma.h>\n", {}, "C2R-A117"),  # nothing of it used: dropped
    ("cufftHandle h;\n", {"roc": True}, "C2R-A108"),
])
def test_findings(src, kw, rule):
    assert rule in rules_of(src, **kw)


def test_finding_position_is_line_and_column():
    r = convert_source("int x;\n  cudaSetDoubleForDevice(0);\n", "a.cu", Options(hazards=False))
    (f,) = r.findings  # type: ignore[union-attr]
    assert (f.path, f.line, f.col, f.severity) == ("a.cu", 2, 3, Severity.HIGH)


def test_defined_helpers_are_not_unknown():
    src = "#define CUDA_CHECK(x) x\nint cudaHelper();\nvoid f() { CUDA_CHECK(cudaHelper()); }\n"
    assert "C2R-A106" not in rules_of(src)


def test_runtime_include_once_after_guard():
    src = "// c\n#ifndef G\n#define G\n__global__ void k() {}\n#endif\n"
    got = out(src)
    assert got == '// c\n#ifndef G\n#define G\n#include "hip/hip_runtime.h"\n__global__ void k() {}\n#endif\n'
    assert out(got) == got


def test_already_hip_is_skipped():
    r = convert_source('#include "hip/hip_runtime.h"\nvoid f(void** p) { hipMalloc(p, 1); }\n')
    assert isinstance(r, Skipped) and "already HIP" in r.reason


def test_plain_cpp_is_unchanged():
    assert isinstance(convert_source("int main() { return 0; }\n"), Unchanged)


@pytest.mark.parametrize(("src", "line"), [
    ("int a;\n/* never closed\n", 2),
    ('int a;\nint b;\nconst char* s = "open\n', 3),
])
def test_unterminated_input_fails_with_line(src, line):
    r = convert_source(src, "bad.cu")
    assert isinstance(r, Failed) and r.line == line and "unterminated" in r.error
