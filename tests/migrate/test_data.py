"""The build-migration tables agree with the rest of the shipped data, and every nvcc option row is usable."""

from __future__ import annotations

from cuda2rocm import knowledge
from cuda2rocm.migrate import flags
from cuda2rocm.migrate.base import libraries
from cuda2rocm.project.buildopts import cmake_variables

ACTIONS = {"map", "drop", "report", "keep", "arch"}


def test_library_targets_agree_with_the_knowledge_base() -> None:
    """Where knowledge/data/libraries.yaml names the hip* package and CMake target of a library, the build table
    says the same (RCCL: the knowledge base's bare `rccl` target is the legacy spelling; ROCm's own packages and
    PyTorch link `roc::rccl`)."""
    kb = knowledge.libraries()
    checked = 0
    for row in libraries():
        lib = kb.get(row.library)
        if lib is None or lib.hip is None or not lib.hip.cmake_package:
            continue
        checked += 1
        assert row.hip_package == lib.hip.cmake_package, row
        if row.library != "NCCL":
            assert row.hip_target == lib.hip.cmake_target.split(" ")[0], row
        assert lib.hip.link in ("", f"lib{row.hip_link}.so"), row
    assert checked >= 7


def test_flag_rows_are_well_formed() -> None:
    for name, row in flags.table().items():
        assert name.startswith("-") and row.action in ACTIONS and row.value in ("none", "joined", "separate")
        assert row.severity in ("info", "low", "medium", "high")
        if row.action == "map":
            assert row.hip, name


def test_cmake_variables_are_well_formed() -> None:
    for name, var in cmake_variables().items():
        assert var.kind in ("variable", "property", "result")
        assert ("CUDA" in name or "Cuda" in name) and "CUDA" not in var.language + var.package
        if not var.language:
            assert var.note, name  # no counterpart: the finding must say what to do


def test_bazel_table_is_well_formed() -> None:
    """Every ROCm label is a target of @local_config_rocm//rocm, every CUDA one is in a CUDA repository, names with
    no counterpart say what to do, and each CUDA library of the build table that has a ROCm target is mapped."""
    from cuda2rocm.migrate.bazel import ROCM_PACKAGE, _is_cuda_label, table

    t = table()
    assert t.loads and all(_is_cuda_label(k) and v.startswith("@local_config_rocm//") for k, v in t.loads.items())
    for cuda, (rocm, note) in t.symbols.items():
        assert "cuda" in cuda and ("rocm" in rocm if rocm else note), cuda
    for cuda, (rocm, _) in t.labels.items():
        assert _is_cuda_label(cuda) and rocm.startswith(ROCM_PACKAGE + ":"), cuda
    assert all(_is_cuda_label(k) and v.startswith(ROCM_PACKAGE + ":") for k, v in t.conditions.items())
    for lib in ("cublas", "curand", "cusparse", "cufft", "cusolver", "cudnn", "cudart"):
        assert t.labels[f"@local_config_cuda//cuda:{lib}"][0] == t.labels[f"@local_cuda//:{lib}"][0], lib
    assert t.labels["@local_cuda//:curand"][0] == "@local_config_rocm//rocm:hiprand"
