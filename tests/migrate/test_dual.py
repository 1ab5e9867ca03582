"""``migrate build --dual``: one build for both platforms behind GPU_PLATFORM.

Proof on our randsparse project (runtime, cuRAND, cuSPARSE): a tree holding the CUDA sources and convert's
``.hip`` twins, migrated with ``--dual``, builds for gfx90a with Debian's hipcc when ``GPU_PLATFORM=hip``
(cmake package style and make), and with the default ``GPU_PLATFORM=cuda`` it is the original build: make runs
exactly the original commands (``make -n``), and cmake configures exactly as the original does (on this
machine both stop at the same missing cuRAND target: the CUDA toolkit here has no cuRAND; the comparison holds
either way).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cuda2rocm.migrate.base import BuildOptions
from cuda2rocm.migrate.build import migrate_build, migrate_file, renames_in_tree
from cuda2rocm.rewrite.runner import Mode
from cuda2rocm.source.edits import apply_edits
from cuda2rocm.source.formats.cmake import read_cmake
from cuda2rocm.translate.api import convert

PROJECT = Path(__file__).parent / "projects" / "randsparse"
HIPCC = shutil.which("hipcc")
CMAKE = shutil.which("cmake")
NVCC = shutil.which("nvcc")
ENV = {**os.environ, "HIP_PLATFORM": "amd"}

LISTFILE = """cmake_minimum_required(VERSION 3.18)
project(demo LANGUAGES CXX CUDA)
find_package(CUDAToolkit REQUIRED)
add_library(k STATIC k.cu)  # kernels
target_link_libraries(k PRIVATE CUDA::cublas)
if(CUDAToolkit_FOUND)
  message(STATUS "found")
endif()
"""


def _dual(name: str, text: str, **kw: object) -> str:
    done = migrate_file(name, text, BuildOptions(gfx=("gfx90a",), dual=True, **kw))  # type: ignore[arg-type]
    assert not done.problems
    return apply_edits(text, done.edits)


def test_cmake_every_change_is_kept_for_both_platforms() -> None:
    out = _dual("CMakeLists.txt", LISTFILE, renames={"k.cu": "k.hip"})
    assert not read_cmake(out).problems
    assert out.count('set(GPU_PLATFORM "cuda" CACHE STRING') == 1
    assert 'if(GPU_PLATFORM STREQUAL "hip")\nproject(demo LANGUAGES CXX HIP)\nelse()\n' \
           "project(demo LANGUAGES CXX CUDA)\nendif()" in out
    assert "add_library(k STATIC k.hip)  # kernels" not in out  # the comment stays after endif()
    assert 'if(GPU_PLATFORM STREQUAL "hip")\nadd_library(k STATIC k.hip)\nelse()\nadd_library(k STATIC k.cu)\n' \
           "endif()  # kernels" in out
    assert "target_link_libraries(k PRIVATE CUDA::cublas)" in out and "roc::hipblas" in out
    # a condition keeps the block structure: both tests in one if()
    assert 'if((GPU_PLATFORM STREQUAL "hip" AND (hip_FOUND)) OR (NOT GPU_PLATFORM STREQUAL "hip" AND ' \
           "(CUDAToolkit_FOUND)))" in out
    ifs = [c.lower for c in read_cmake(out).commands if c.lower in ("if", "endif")]
    assert ifs.count("if") == ifs.count("endif")
    assert _dual("CMakeLists.txt", out, renames={"k.cu": "k.hip"}) == out  # a second run changes nothing


def test_every_cuda_branch_is_the_original_text() -> None:
    out = _dual("CMakeLists.txt", LISTFILE, renames={"k.cu": "k.hip"})
    cuda = re.sub(r'if\(GPU_PLATFORM STREQUAL "hip"\)\n.*?\nelse\(\)\n(.*?)\nendif\(\)', r"\1", out, flags=re.S)
    cuda = re.sub(r'\n?if\(GPU_PLATFORM STREQUAL "hip"\)\n.*?\nendif\(\)', "", cuda, flags=re.S)
    cuda = re.sub(r'\(GPU_PLATFORM STREQUAL "hip" AND \(.*?\)\) OR \(NOT GPU_PLATFORM STREQUAL "hip" AND \((.*?)\)\)',
                  r"\1", cuda)
    cuda = "".join(ln for ln in cuda.splitlines(keepends=True) if "GPU_PLATFORM" not in ln)
    assert cuda.replace("VERSION 3.21", "VERSION 3.18") == LISTFILE


def test_make_lines_between_platform_conditionals() -> None:
    text = "NVCC ?= nvcc\nLIBS := -lcudart -lcublas\n%.o: %.cu\n\t$(NVCC) -arch=sm_80 -c $< -o $@\n"
    out = _dual("Makefile", text)
    assert out.startswith("GPU_PLATFORM ?= cuda\nifeq ($(GPU_PLATFORM),hip)\nNVCC ?= hipcc\nelse\nNVCC ?= nvcc\n"
                          "endif\n")
    assert "else\n\t$(NVCC) -arch=sm_80 -c $< -o $@\nendif" in out  # a recipe line, conditionals at column 0
    assert _dual("Makefile", out) == out


def test_setup_py_edits_stay_findings_in_dual_mode() -> None:
    text = "import os\nos.environ['TORCH_CUDA_ARCH_LIST'] = '8.0'\n"
    done = migrate_file("setup.py", text, BuildOptions(dual=True))
    assert not done.edits and done.findings
    assert all(f.remedy is None and "--dual: not applied" in f.message for f in done.findings)


def _dual_tree(tmp_path: Path) -> Path:
    """The project with convert's .hip twins beside its .cu sources, build files migrated with --dual."""
    out = tmp_path / "dual"
    assert not convert(PROJECT, out).failed
    for src in PROJECT.rglob("*"):
        if src.is_file() and (src.suffix == ".cu" or src.name in ("CMakeLists.txt", "Makefile")):
            shutil.copy2(src, out / src.relative_to(PROJECT))
    run = migrate_build(out, mode=Mode.IN_PLACE, backup=False,
                        options=BuildOptions(gfx=("gfx90a",), style="package", dual=True,
                                             renames=renames_in_tree(out, twins=True)))
    assert not run.failed and len(run.changed) == 2
    return out


def _run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, env=ENV, capture_output=True, text=True, timeout=900, check=False)


def test_make_cuda_branch_runs_the_original_commands(tmp_path: Path) -> None:
    out = _dual_tree(tmp_path)
    original = _run(["make", "-n", "-B"], PROJECT)
    dual = _run(["make", "-n", "-B"], out)
    assert original.returncode == dual.returncode == 0, dual.stderr
    assert dual.stdout == original.stdout


@pytest.mark.hipcc
@pytest.mark.skipif(HIPCC is None, reason="needs a real hipcc")
def test_hip_branch_builds_for_gfx90a_with_make_and_cmake(tmp_path: Path) -> None:
    out = _dual_tree(tmp_path)
    rocm = str(Path(HIPCC or "").resolve().parent.parent)
    built = _run(["make", "GPU_PLATFORM=hip", f"ROCM_PATH={rocm}", "WITH_CUB=0", "-j2"], out)
    assert built.returncode == 0, built.stdout + built.stderr
    assert b"gfx90a" in (out / "randsparse_make").read_bytes()
    if CMAKE is None:
        pytest.skip("cmake absent: the make build above ran")
    done = _run([CMAKE, "-S", str(out), "-B", str(out / "b"), "-DGPU_PLATFORM=hip", "-DWITH_CUB=OFF",
                 f"-DCMAKE_CXX_COMPILER={HIPCC}"], out)
    assert done.returncode == 0, done.stdout + done.stderr
    built = _run([CMAKE, "--build", str(out / "b"), "-j2"], out)
    assert built.returncode == 0, built.stdout + built.stderr
    assert b"gfx90a" in (out / "b" / "randsparse").read_bytes()


@pytest.mark.nvcc
@pytest.mark.skipif(CMAKE is None or NVCC is None, reason="needs cmake and nvcc")
def test_cmake_cuda_branch_configures_as_the_original(tmp_path: Path) -> None:
    out = _dual_tree(tmp_path)
    original = _run([CMAKE, "-S", str(PROJECT), "-B", str(tmp_path / "o"), "-DWITH_CUB=OFF"], tmp_path)
    dual = _run([CMAKE, "-S", str(out), "-B", str(tmp_path / "d"), "-DWITH_CUB=OFF"], tmp_path)
    assert dual.returncode == original.returncode

    def errors(done: subprocess.CompletedProcess[str]) -> list[str]:
        return sorted(set(re.findall(r"links to:\s+(\S+)", done.stderr)))

    assert errors(dual) == errors(original)
    assert "randsparse: CUDA" in dual.stdout and "randsparse: CUDA" in original.stdout
