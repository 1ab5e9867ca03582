"""--target-rocm follows the ROCm math libraries' API changes (issue 16, family 1; translate/data/library_releases.csv):
hipBLAS takes hipDataType/hipblasComputeType_t from ROCm 6.0 (before: hipblasDatatype_t for both), and its `_v2`
functions carry their plain names from ROCm 7.0. Properties over every release and every affected table row."""

from __future__ import annotations

import re

import pytest

from cuda2rocm.mapping import ROCM_RELEASES
from cuda2rocm.mapping.table import load
from cuda2rocm.mapping.version import parse_version
from cuda2rocm.model import Translated
from cuda2rocm.translate import data
from cuda2rocm.translate.api import convert_source
from cuda2rocm.translate.decide import Settings, decide
from cuda2rocm.translate.options import Options

RELEASES = sorted({str(r.major_minor) for r in ROCM_RELEASES}, key=parse_version)
V2_ROWS = sorted((e for e in load().by_library("cublas") if re.search(r"_v2(_64)?$", e.hip)), key=lambda e: e.cuda)
HIP_DATATYPE = parse_version("6.0")
PLAIN_NAMES = parse_version("7.0")


def _settings(target: str, **kw: bool) -> Settings:
    return Settings(target, kw.get("roc", False), kw.get("experimental", False), kw.get("use_hip_data_types", False))


def test_the_release_facts_are_the_documented_ones() -> None:
    assert data.library_releases() == {("cublas", "hipDataType"): HIP_DATATYPE, ("cublas", "drop_v2"): PLAIN_NAMES}
    assert len(V2_ROWS) > 300  # every hipBLAS *_v2 mapping of the table is covered below


@pytest.mark.parametrize("target", RELEASES)
def test_no_v2_name_outside_the_releases_that_have_them(target: str) -> None:
    version = parse_version(target)
    for entry in V2_ROWS:
        d = decide(entry.cuda, _settings(target, experimental=True))
        assert d is not None
        emitted = d.replacement
        if version >= PLAIN_NAMES:
            assert emitted == re.sub(r"_v2(?=(_64)?$)", "", entry.hip), entry.cuda
        elif entry.available_in(target):
            assert emitted == entry.hip, entry.cuda
        else:  # before the _v2 API: the plain pre-6.0 function where there is one, else kept and reported
            assert "_v2" not in emitted or emitted == entry.cuda, entry.cuda
            assert d.rule is not None and d.rule.id in ("C2R-A103", "C2R-A105"), entry.cuda


@pytest.mark.parametrize("target", RELEASES)
def test_library_datatypes_are_one_family_per_release(target: str) -> None:
    for cuda, hipblas in data.library_datatypes().items():
        d = decide(cuda, _settings(target))
        assert d is not None
        if parse_version(target) < HIP_DATATYPE:
            assert d.replacement == hipblas, cuda
        else:
            assert not d.replacement.startswith(("HIPBLAS_", "hipblas")), cuda
        hip = decide(cuda, _settings(target, use_hip_data_types=True))
        assert hip is not None and not hip.replacement.startswith(("HIPBLAS_", "hipblas")), cuda


def test_compute_types_before_6_0_are_hipblas_datatypes() -> None:
    """hipblasGemmEx of hipBLAS < 2.0 takes the compute type as a hipblasDatatype_t: every CUBLAS_COMPUTE_* falls
    back to one of hipBLAS's data-type names, which are what the data types become for that target too."""
    names = set(data.library_datatypes().values()) | {"hipblasDatatype_t"}
    computes = [e for e in load().by_library("cublas") if e.cuda.startswith("CUBLAS_COMPUTE_") and e.hip]
    assert len(computes) >= 11
    for entry in [*computes, load().lookup("cublasComputeType_t")]:
        assert entry is not None
        d = decide(entry.cuda, _settings("5.7"))
        assert d is not None and d.replacement in names and d.rule is not None and d.rule.id == "C2R-A105"
        later = decide(entry.cuda, _settings("6.0"))
        assert later is not None and later.replacement == entry.hip and later.rule is None


GEMM = """#include <cublas_v2.h>
cublasStatus_t g(cublasHandle_t h, int n, const void* A, void* C, const float* a, cuComplex* x) {
  cublasCaxpy(h, n, x, x, 1, x, 1);
  return cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, a, A, CUDA_R_16F, n, A, CUDA_R_16F, n, a, C, CUDA_R_32F,
                      n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}
"""


@pytest.mark.parametrize("target", RELEASES)
def test_a_gemm_never_mixes_the_two_datatype_families(target: str) -> None:
    r = convert_source(GEMM, "g.cu", Options(target_rocm=target))
    assert isinstance(r, Translated)
    hipblas = re.findall(r"\bHIPBLAS_R_\w+", r.text)
    hip = re.findall(r"\bHIP_R_\w+", r.text)
    if parse_version(target) < HIP_DATATYPE:
        assert hipblas and not hip and "hipblasGemmEx(h," in r.text and "HIPBLAS_COMPUTE" not in r.text
    else:
        assert hip and not hipblas and "HIPBLAS_COMPUTE_32F" in r.text
        want = "hipblasGemmEx(h," if parse_version(target) >= PLAIN_NAMES else "hipblasGemmEx_v2(h,"
        assert want in r.text
    assert ("_v2" in r.text) == (HIP_DATATYPE <= parse_version(target) < PLAIN_NAMES)


@pytest.mark.parametrize("target", ["5.2", "6.0", "6.2", "7.0", "7.2"])
@pytest.mark.parametrize("cuda", sorted(data.compute_type_args()))
def test_a_data_type_passed_as_the_compute_type_is_the_compute_type(target: str, cuda: str) -> None:
    """The CUDA < 11 form cublasGemmEx(..., CUDA_R_32F, algo): hipBLAS >= 2.0 needs HIPBLAS_COMPUTE_32F there."""
    position, computes = data.compute_type_args()[cuda]
    for datatype, compute in computes.items():
        args = [f"a{k}" for k in range(position + 2)]
        args[position] = datatype
        args[position - 1] = datatype  # a data type elsewhere stays a data type
        r = convert_source(f"#include <cublas_v2.h>\nvoid g() {{ {cuda}({', '.join(args)}); }}\n", "g.cu",
                           Options(target_rocm=target))
        assert isinstance(r, Translated)
        call = r.text.split("(", 2)[2]
        emitted = call.split(", ")[position].strip()
        before = call.split(", ")[position - 1].strip()
        same_type = decide(datatype, _settings(target))
        want = decide(compute, _settings(target)) if parse_version(target) >= HIP_DATATYPE else same_type
        assert want is not None and same_type is not None
        assert emitted == want.replacement, (cuda, datatype)
        assert before == same_type.replacement, (cuda, datatype)
        if parse_version(target) >= HIP_DATATYPE:
            assert emitted.startswith("HIPBLAS_COMPUTE_")
