"""The bundled example's build files migrate (examples/llm-service/libgemm/CMakeLists.txt: cuBLAS, cuBLASLt,
NCCL). It cannot be built here: hipBLAS, hipBLASLt and RCCL are not packaged in Debian 12 (the randsparse project
in test_real_build.py is what builds), so this test checks the migrated listfile itself."""

from __future__ import annotations

from pathlib import Path

from cuda2rocm.migrate.base import BuildOptions
from cuda2rocm.migrate.build import migrate_build
from cuda2rocm.rewrite.runner import Mode
from cuda2rocm.source.formats.cmake import read_cmake

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "llm-service"


def test_example_listfile_migrates() -> None:
    run = migrate_build(EXAMPLE, mode=Mode.DIFF, options=BuildOptions(gfx=("gfx942",)))
    assert not run.problems and not run.failed
    (outcome,) = run.changed
    assert outcome.job.display == "libgemm/CMakeLists.txt"
    new = outcome.text or ""
    assert not read_cmake(new).problems
    for expected in ("project(libgemm LANGUAGES CXX HIP)", "set(CMAKE_HIP_ARCHITECTURES gfx942)",
                     "find_package(hip REQUIRED)", "find_package(hipblas REQUIRED)", "find_package(rccl REQUIRED)",
                     "hip::host roc::hipblas roc::hipblaslt roc::rccl",
                     "set_source_files_properties(src/gemm.cu src/topk.cu src/attention.cu PROPERTIES LANGUAGE HIP)"):
        assert expected in new
    assert "CUDA::" not in new and "CUDAToolkit" not in new
    # the unquoted generator expression with a space is cut short by CMake itself: reported, not rewritten
    (split,) = [f for f in run.for_review if f.rule == "C2R-B103"]
    assert split.line == 19 and "quote the whole expression" in split.message
