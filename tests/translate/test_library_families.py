"""Library families of convert per target ROCm: cuSPARSE's generic API, cuRAND's device API, cuDNN -> MIOpen, and
the call forms HIP spells differently (``hip_signatures.csv``), each translated or kept and reported."""

from __future__ import annotations

import pytest

from cuda2rocm.mapping import load
from cuda2rocm.translate import data
from cuda2rocm.translate.engine import translate_text
from cuda2rocm.translate.options import Options


def _run(src: str, **options: object) -> tuple[str, set[str]]:
    result = translate_text(src, "f.cu", Options(**options)).result  # type: ignore[arg-type]
    return result.text, {f.rule for f in result.findings}


SPSV = "cusparseSpSV_solve(h, op, &a, A, x, y, CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, d);"
SPSM = "cusparseSpSM_solve(h, op, op, &a, A, B, C, CUDA_R_32F, CUSPARSE_SPSM_ALG_DEFAULT, d);"


def test_spsv_solve_before_rocm_6_is_kept_and_reported() -> None:
    text, rules = _run(SPSV, target_rocm="5.7")
    assert text.startswith("cusparseSpSV_solve(") and "HIPSPARSE_SPSV_ALG_DEFAULT" in text
    assert "C2R-A121" in rules
    text, rules = _run(SPSV, target_rocm="6.0")
    assert text == "hipsparseSpSV_solve(h, op, &a, A, x, y, HIP_R_32F, HIPSPARSE_SPSV_ALG_DEFAULT, d);"
    assert "C2R-A121" not in rules


def test_spsm_solve_gets_its_unused_buffer_from_rocm_6() -> None:
    text, rules = _run(SPSM, target_rocm="6.2")
    assert text == "hipsparseSpSM_solve(h, op, op, &a, A, B, C, HIP_R_32F, HIPSPARSE_SPSM_ALG_DEFAULT, d, nullptr);"
    assert "C2R-A121" not in rules
    text, rules = _run(SPSM, target_rocm="5.2")
    assert text.startswith("cusparseSpSM_solve(") and "nullptr" not in text and "C2R-A121" in rules


@pytest.mark.parametrize("rocm", ["5.2", "6.0", None])
def test_cuda_12_graph_instantiate_is_hip_instantiate_with_flags(rocm: str | None) -> None:
    text, _ = _run("#include <cuda_runtime.h>\ncudaGraphInstantiate(&e, g, 0); cudaGraphInstantiate(&e, g, NULL, "
                   "NULL, 0);", target_rocm=rocm)
    assert text == ("#include <hip/hip_runtime.h>\nhipGraphInstantiateWithFlags(&e, g, 0); "
                    "hipGraphInstantiate(&e, g, NULL, NULL, 0);")


def test_three_argument_graph_exec_update_has_no_hip_form() -> None:
    text, rules = _run("#include <cuda_runtime.h>\ncudaGraphExecUpdate(e, g, &info); cudaGraphExecUpdate(e, g, "
                       "&node, &result);")
    assert text == ("#include <hip/hip_runtime.h>\ncudaGraphExecUpdate(e, g, &info); "
                    "hipGraphExecUpdate(e, g, &node, &result);")
    assert "C2R-A121" in rules


def test_a_name_that_is_no_call_is_left_to_the_tables() -> None:
    text, rules = _run("auto f = &cusparseSpSV_solve;", target_rocm="5.2")
    assert text == "auto f = &hipsparseSpSV_solve;" and "C2R-A121" not in rules


def test_column_order_per_target() -> None:
    assert _run("int o = CUSPARSE_ORDER_COL;", target_rocm="5.2") == ("int o = HIPSPARSE_ORDER_COLUMN;",
                                                                      {"C2R-A105"})
    assert _run("int o = CUSPARSE_ORDER_COL;", target_rocm="5.4")[0] == "int o = HIPSPARSE_ORDER_COL;"
    assert _run("int o = CUSPARSE_ORDER_COL, r = CUSPARSE_ORDER_ROW;", roc=True)[0] == (
        "int o = rocsparse_order_column, r = rocsparse_order_row;")


def test_roc_names_are_emitted_only_where_the_release_has_them() -> None:
    src = "cusparseConstSpMatDescr_t a; cusparseSpMatDescr_t b;"
    text, rules = _run(src, roc=True, target_rocm="5.7")
    assert text == "cusparseConstSpMatDescr_t a; rocsparse_spmat_descr b;" and "C2R-A103" in rules
    assert _run(src, roc=True, target_rocm="6.0")[0] == "rocsparse_const_spmat_descr a; rocsparse_spmat_descr b;"


def test_cudnn_calls_with_other_miopen_arguments_are_kept() -> None:
    src = ("cudnnConvolutionForward(h, &a, xd, x, wd, w, cd, algo, ws, n, &b, yd, y);\n"
           "cudnnActivationForward(h, ad, &a, xd, x, &b, yd, y);\n")
    text, rules = _run(src)
    assert text.splitlines() == ["cudnnConvolutionForward(h, &a, xd, x, wd, w, cd, algo, ws, n, &b, yd, y);",
                                 "miopenActivationForward(h, ad, &a, xd, x, &b, yd, y);"]
    assert "C2R-A120" in rules


def test_curand_device_states_under_roc() -> None:
    text, _ = _run("#include <curand_kernel.h>\n__global__ void k() { curandState_t s; curand_init(1, 0, 0, &s); }",
                   roc=True)
    assert "rocrand_state_xorwow s; rocrand_init(1, 0, 0, &s);" in text and "rocrand/rocrand_kernel.h" in text
    text, _ = _run("#include <curand_mtgp32dc_p_11213.h>\nmtgp32_kernel_params* p;")
    assert text == "#include <rocrand/rocrand_mtgp32_11213.h>\nmtgp32_kernel_params_t* p;"


def test_signature_tables_name_real_mappings() -> None:
    table = load()
    for name, forms in data.hip_signatures().items():
        entry = table.lookup(name)
        assert entry is not None and entry.hip, name
        for form in forms:
            assert form.note and form.args > 0, name
            assert not form.hip or any(e.hip == form.hip for e in table.by_library(entry.library)), form.hip
    for name in data.roc_signatures():
        entry = table.lookup(name)
        assert entry is not None and entry.roc and entry.roc in data.roc_signatures()[name], name
