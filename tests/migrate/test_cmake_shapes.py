"""CMake shapes seen in public CUDA projects (our own minimal cases, written from what a sweep of real listfiles
showed), each with what migrate build must make of it. Several were wrong before: a GPU block skipped after the
migration (``if(CMAKE_CUDA_COMPILER)``), nvcc kept as the HIP compiler, ``-lcublas`` left, an empty option left
where an nvcc-only generator expression was."""

from __future__ import annotations

import pytest

from cuda2rocm.migrate.base import BuildOptions
from cuda2rocm.migrate.build import migrate_file
from cuda2rocm.source.edits import apply_edits
from cuda2rocm.source.formats.cmake import read_cmake


def _migrate(text: str, style: str = "language") -> tuple[str, list[str]]:
    done = migrate_file("CMakeLists.txt", text, BuildOptions(gfx=("gfx942",), style=style))
    assert not done.problems
    out = apply_edits(text, done.edits)
    assert not read_cmake(out).problems
    again = migrate_file("CMakeLists.txt", out, BuildOptions(gfx=("gfx942",), style=style))
    assert apply_edits(out, again.edits) == out, "a second run must change nothing"
    return out, [f"{f.rule}:{f.line}" for f in done.findings if f.remedy is None]


HEAD = "cmake_minimum_required(VERSION 3.21)\nproject(p LANGUAGES CXX CUDA)\nfind_package(CUDAToolkit REQUIRED)\n"


@pytest.mark.parametrize(("style", "expected"), [("language", "if(CMAKE_HIP_COMPILER)"), ("package", "if(hip_FOUND)")])
def test_a_block_guarded_by_the_cuda_compiler_still_runs(style: str, expected: str) -> None:
    out, _ = _migrate(HEAD + "include(CheckLanguage)\ncheck_language(CUDA)\nif(CMAKE_CUDA_COMPILER)\n"
                      "  add_definitions(-DGPU)\nendif()\n", style)
    assert expected in out


@pytest.mark.parametrize("compiler", ["nvcc", "/usr/local/cuda/bin/nvcc"])
def test_nvcc_named_as_the_compiler_is_removed_not_renamed(compiler: str) -> None:
    out, _ = _migrate(f"cmake_minimum_required(VERSION 3.21)\nset(CMAKE_CUDA_COMPILER {compiler})\n"
                      "project(p LANGUAGES CXX CUDA)\n")
    assert "nvcc" not in out and "CMAKE_HIP_COMPILER" not in out
    assert out == "cmake_minimum_required(VERSION 3.21)\nproject(p LANGUAGES CXX HIP)\nfind_package(hip REQUIRED)\n"


def test_linker_flags_and_libraries_without_a_counterpart() -> None:
    text = HEAD + "add_executable(app main.cpp)\ntarget_link_libraries(app PRIVATE -lm -lcublas -lcudadevrt)\n"
    out, _ = _migrate(text)
    assert "target_link_libraries(app PRIVATE -lm roc::hipblas)" in out
    done = migrate_file("CMakeLists.txt", text, BuildOptions())
    assert any("device runtime" in f.message and f.line == 5 for f in done.findings)
    assert "find_package(hipblas REQUIRED)" in out  # the -l name counts as a use of the library


def test_an_nvcc_only_generator_expression_argument_goes_whole() -> None:
    out, _ = _migrate(HEAD + 'add_compile_options("$<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda>" -Wall)\n')
    assert "add_compile_options(-Wall)" in out


def test_architectures_from_a_user_variable_are_kept_and_reported() -> None:
    out, review = _migrate(HEAD + "if(DEFINED ARCH)\n  set(CMAKE_CUDA_ARCHITECTURES ${ARCH})\nendif()\n")
    assert "set(CMAKE_HIP_ARCHITECTURES ${ARCH})" in out
    assert "C2R-B102:5" in review


@pytest.mark.parametrize(("style", "feature"), [("language", "hip_std_17"), ("package", "cxx_std_17")])
def test_cuda_standard_compile_feature(style: str, feature: str) -> None:
    out, _ = _migrate(HEAD + "add_executable(app main.cpp)\ntarget_compile_features(app PRIVATE cuda_std_17)\n",
                      style)
    assert f"target_compile_features(app PRIVATE {feature})" in out


def test_toolkit_location_from_the_environment() -> None:
    out, _ = _migrate(HEAD + "add_executable(app main.cpp)\ntarget_include_directories(app PRIVATE "
                      "$ENV{CUDA_HOME}/include)\nfind_library(CUBLAS_LIBRARY cublas HINTS $ENV{CUDA_PATH}/lib64)\n")
    assert "$ENV{ROCM_PATH}/include" in out and "HINTS $ENV{ROCM_PATH}/lib)" in out and "CUDA_" not in \
        out.split("find_package")[-1].replace("CUBLAS_LIBRARY", "")
