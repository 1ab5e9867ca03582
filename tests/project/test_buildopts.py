"""The build facts of the project model (project/buildopts.py): the CMake options that select a GPU platform,
declared in one listfile, and the one decision about a cmake command line's CUDA ``-D`` settings that scan
(C2R-D110) and migrate deploy (C2R-M113) share."""

from __future__ import annotations

from pathlib import Path

import pytest

from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.migrate.deploy.run import build_facts, migrate_file
from cuda2rocm.project.buildopts import BuildFacts, cmake_settings, gpu_options, is_cmake_configure, name_platform
from cuda2rocm.scan.api import scan
from cuda2rocm.source.edits import apply_edits
from cuda2rocm.source.formats.cmake import read_cmake

LISTFILE = """option(PROJ_USE_CUDA "CUDA kernels" ON)
option(PROJ_USE_HIP "HIP kernels" OFF)
option(PROJ_NVIDIA_ONLY "no counterpart" ON)
option(BUILD_TESTS "tests" ON)
set(PROJ_BACKEND CUDA CACHE STRING "backend")
set_property(CACHE PROJ_BACKEND PROPERTY STRINGS CUDA HIP CPU)
set(ONLY_CUDA CUDA CACHE STRING "a backend string with no HIP value")
"""
GFX = ("gfx90a", "gfx942")


def _facts() -> BuildFacts:
    return gpu_options([("cmake/options.cmake", read_cmake(LISTFILE))])


def test_gpu_options_are_found_with_their_counterparts_and_origin() -> None:
    facts = _facts()
    names = {o.name: o for o in facts.options}
    assert set(names) == {"PROJ_USE_CUDA", "PROJ_USE_HIP", "PROJ_NVIDIA_ONLY", "PROJ_BACKEND", "ONLY_CUDA"}
    assert names["PROJ_USE_CUDA"].counterpart == "PROJ_USE_HIP" and names["PROJ_USE_CUDA"].line == 1
    assert names["PROJ_USE_CUDA"].path == "cmake/options.cmake"
    assert names["PROJ_NVIDIA_ONLY"].counterpart == ""
    assert names["PROJ_BACKEND"].choices == ("CUDA", "HIP", "CPU") and names["PROJ_BACKEND"].counterpart == "HIP"
    assert names["ONLY_CUDA"].counterpart == ""


@pytest.mark.parametrize(("name", "platform"), [
    ("USE_CUDA", "cuda"), ("GGML_CUDA", "cuda"), ("ggmlUseHip", "hip"), ("WITH_ROCM", "hip"),
    ("BUILD_TESTS", ""), ("CUDA_OR_HIP", ""), ("ENABLE_NVCC_LINEINFO", "cuda"),
])
def test_name_platform(name: str, platform: str) -> None:
    assert name_platform(name) == platform


def test_one_decision_per_setting() -> None:
    values = ["cmake", "-S", ".", "-B", "b", "-DPROJ_USE_CUDA=ON", "-D", "PROJ_BACKEND=CUDA",
              "-DPROJ_NVIDIA_ONLY:BOOL=ON", "-DONLY_CUDA=CUDA", "-DPROJ_USE_CUDA=OFF", "-DBUILD_TESTS=ON",
              "-DCMAKE_CUDA_ARCHITECTURES=80;90", "-DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc",
              "-DCUDAToolkit_ROOT=/usr/local/cuda", "-DCMAKE_CUDA_STANDARD=17"]
    got = {(s.name, s.value): s for s in cmake_settings(values, _facts(), GFX)}
    assert got[("PROJ_USE_CUDA", "ON")].words == ("-DPROJ_USE_CUDA=OFF", "-DPROJ_USE_HIP=ON")
    assert "cmake/options.cmake:1" in got[("PROJ_USE_CUDA", "ON")].why
    backend = got[("PROJ_BACKEND", "CUDA")]
    assert (backend.first, backend.last, backend.words) == (6, 7, ("-DPROJ_BACKEND=HIP",))
    assert got[("PROJ_NVIDIA_ONLY", "ON")].words is None and "no HIP option" in got[("PROJ_NVIDIA_ONLY", "ON")].why
    assert got[("ONLY_CUDA", "CUDA")].words is None
    assert ("PROJ_USE_CUDA", "OFF") not in got and ("BUILD_TESTS", "ON") not in got  # nothing selects CUDA
    assert got[("CMAKE_CUDA_ARCHITECTURES", "80;90")].words == ("-DCMAKE_HIP_ARCHITECTURES=gfx90a;gfx942",)
    assert got[("CMAKE_CUDA_COMPILER", "/usr/local/cuda/bin/nvcc")].words == ()
    assert got[("CUDAToolkit_ROOT", "/usr/local/cuda")].words is None
    assert got[("CMAKE_CUDA_STANDARD", "17")].words == ("-DCMAKE_HIP_STANDARD=17",)


def test_only_configure_commands() -> None:
    assert is_cmake_configure(["/usr/bin/cmake", "-B", "b"]) and is_cmake_configure(["cmake3", ".."])
    assert not is_cmake_configure(["cmake", "--build", "b"]) and not is_cmake_configure(["ccmake", ".."])
    assert cmake_settings(["cmake", "--build", "b", "-DCMAKE_CUDA_ARCHITECTURES=80"], BuildFacts(), GFX) == []
    assert cmake_settings(["make", "-DCMAKE_CUDA_ARCHITECTURES=80"], BuildFacts(), GFX) == []


def _project(tmp_path: Path) -> Path:
    (tmp_path / "cmake").mkdir()
    (tmp_path / "cmake" / "options.cmake").write_text(LISTFILE)
    (tmp_path / "CMakeLists.txt").write_text("project(p LANGUAGES CXX)\ninclude(cmake/options.cmake)\n")
    (tmp_path / "build.sh").write_text("#!/bin/sh\nCC=gcc cmake -B out -D PROJ_BACKEND=CUDA -DPROJ_NVIDIA_ONLY=ON\n")
    (tmp_path / "Dockerfile").write_text("FROM rocm/dev-ubuntu-22.04:7.1.1-complete\n"
                                         "RUN cmake -B /b -DPROJ_USE_CUDA=ON \\\n"
                                         "      -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc \\\n"
                                         "      -DCMAKE_CUDA_FLAGS=\"-O3 $EXTRA\"\n")
    return tmp_path


def test_scan_and_migrate_deploy_decide_alike_across_files(tmp_path: Path) -> None:
    root = _project(tmp_path)
    found = sorted((f.path, f.line) for f in scan(root).findings if f.rule == "C2R-D110")
    assert found == [("Dockerfile", 2), ("Dockerfile", 3), ("Dockerfile", 4), ("build.sh", 2), ("build.sh", 2)]
    options = DeployOptions(build=build_facts(root))
    assert options.build.get("PROJ_USE_CUDA") is not None
    docker = migrate_file("Dockerfile", (root / "Dockerfile").read_text(), options)
    text = apply_edits((root / "Dockerfile").read_text(), docker.edits)
    assert ("RUN cmake -B /b -DPROJ_USE_CUDA=OFF -DPROJ_USE_HIP=ON \\\n"
            "      -DCMAKE_HIP_FLAGS=\"-O3 $EXTRA\"\n") in text
    assert {f.line for f in docker.findings if f.rule == "C2R-M113"} == {2, 3, 4}
    script = migrate_file("build.sh", (root / "build.sh").read_text(), options)
    assert "-DPROJ_BACKEND=HIP" in apply_edits((root / "build.sh").read_text(), script.edits)
    reported = [f for f in script.findings if f.rule == "C2R-M113" and f.remedy is None]
    assert len(reported) == 1 and "PROJ_NVIDIA_ONLY" in reported[0].message


def test_without_the_listfiles_only_cmake_variables_are_known(tmp_path: Path) -> None:
    text = "#!/bin/sh\ncmake -B b -DPROJ_USE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=80\n"
    result = migrate_file("build.sh", text, DeployOptions())
    assert apply_edits(text, result.edits) == (
        "#!/bin/sh\ncmake -B b -DPROJ_USE_CUDA=ON '-DCMAKE_HIP_ARCHITECTURES=gfx90a;gfx942'\n")
