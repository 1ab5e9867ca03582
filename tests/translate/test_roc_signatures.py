"""--roc never emits a roc* call with CUDA's argument list (issue 18 item 2): mappings whose roc* function takes
other arguments (``translate/data/roc_signatures.csv``) keep the hip* call and report C2R-A120 (high)."""

from __future__ import annotations

import pytest

from cuda2rocm.model import Severity, Translated
from cuda2rocm.translate import data, tables
from cuda2rocm.translate.api import convert_source
from cuda2rocm.translate.decide import Settings, decide
from cuda2rocm.translate.options import Options

GEMM = """#include <cublas_v2.h>
void g(cublasHandle_t h, int m, int n, int k, const float* A, const float* B, float* C) {
  float a = 1.f, b = 0.f;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &a, A, CUDA_R_32F, m, B, CUDA_R_32F, k, &b, C, CUDA_R_32F, m,
               CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &a, A, m, B, k, &b, C, m);
}
"""


def test_gemm_ex_keeps_the_hipblas_call_and_reports_high() -> None:
    r = convert_source(GEMM, "g.cpp", Options(roc=True))
    assert isinstance(r, Translated)
    assert "rocblas_gemm_ex" not in r.text and "hipblasGemmEx(h," in r.text  # hipBLAS 3.0 (ROCm 7.0) name
    assert "rocblas_sgemm(h," in r.text  # same arguments as cuBLAS: translated
    (found,) = [f for f in r.findings if f.rule == "C2R-A120"]
    assert found.severity == Severity.HIGH and found.line == 4
    assert "rocblas_gemm_ex takes 24 arguments, not 19" in found.message


def test_without_roc_nothing_changes() -> None:
    r = convert_source(GEMM, "g.cpp", Options())
    assert isinstance(r, Translated)
    assert "hipblasGemmEx(h," in r.text and not [f for f in r.findings if f.rule == "C2R-A120"]


@pytest.mark.parametrize("cuda", sorted(data.roc_signatures()))
def test_every_listed_mapping_exists_and_is_kept_on_hip(cuda: str) -> None:
    entry = tables.lookup(cuda)
    assert entry is not None and entry.roc, f"{cuda}: no roc* mapping to guard"
    assert data.roc_signatures()[cuda].startswith(f"{entry.roc} takes ")
    decision = decide(cuda, Settings(tables.newest_rocm(), True, False, False))
    hip = decide(cuda, Settings(tables.newest_rocm(), False, False, False))
    assert decision is not None and decision.rule is not None and decision.rule.id == "C2R-A120"
    assert hip is not None and decision.replacement in ("", hip.replacement)
    assert not decision.replacement.startswith("roc")
