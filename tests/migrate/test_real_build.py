"""A CUDA project of ours (tests/migrate/projects/randsparse: runtime, cuRAND, cuSPARSE, CUB; CMake and a
Makefile) goes through ``convert`` and ``migrate build`` and then really builds for gfx90a with Debian's hipcc,
with ``cmake`` (package style) and with ``make``.

What cannot build on this machine is named, never skipped silently:
- hipCUB is not packaged in Debian 12 (rocPRIM is), so the CUB reduction is built only where
  ``hipcub/hipcub.hpp`` exists; elsewhere the test builds with ``WITH_CUB=OFF`` and says so.
- CMake's HIP language needs ROCm's hip-lang package at ``<root>/lib/cmake/hip-lang``; Debian installs it under
  the multiarch directory, where CMake does not look: the language-style configure is asserted to fail with
  exactly that message (and to pass where hip-lang is installed the ROCm way).
- The CUDA original builds with nvcc only where cuRAND and cuSPARSE headers are installed."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cuda2rocm.migrate.base import BuildOptions
from cuda2rocm.migrate.build import migrate_build, renames_in_tree
from cuda2rocm.rewrite.runner import Mode
from cuda2rocm.translate.api import convert

PROJECT = Path(__file__).parent / "projects" / "randsparse"
HIPCC = shutil.which("hipcc")
CMAKE = shutil.which("cmake")
HIPCUB = Path("/usr/include/hipcub/hipcub.hpp").exists() or Path("/opt/rocm/include/hipcub/hipcub.hpp").exists()
ENV = {**os.environ, "HIP_PLATFORM": "amd"}
pytestmark = [pytest.mark.hipcc, pytest.mark.skipif(HIPCC is None, reason="needs a real hipcc")]


def _migrated(tmp_path: Path, style: str) -> Path:
    out = tmp_path / "hip"
    report = convert(PROJECT, out)
    assert not report.failed
    run = migrate_build(PROJECT, mode=Mode.MIRROR, output=out,
                        options=BuildOptions(gfx=("gfx90a",), style=style, renames=renames_in_tree(out)))
    assert not run.problems and not run.failed
    assert {o.job.display for o in run.changed} == {"CMakeLists.txt", "Makefile"}
    assert all(o.written for o in run.files)
    return out


def _run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, env=env or ENV, capture_output=True, text=True, timeout=900, check=False)


def _has_gfx90a_code(binary: Path) -> bool:
    return b"gfx90a" in binary.read_bytes()


@pytest.mark.skipif(CMAKE is None, reason="needs cmake")
def test_cmake_package_style_builds_for_gfx90a(tmp_path: Path) -> None:
    out = _migrated(tmp_path, "package")
    with_cub = "ON" if HIPCUB else "OFF"  # hipCUB is not packaged in Debian 12: see the module docstring
    done = _run([CMAKE, "-S", str(out), "-B", str(out / "build"), f"-DWITH_CUB={with_cub}",
                 "-DCMAKE_CXX_COMPILER=" + str(HIPCC)], out)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "randsparse: CUDA" in done.stdout  # the if(hip_FOUND) branch ran
    built = _run([CMAKE, "--build", str(out / "build"), "-j2"], out)
    assert built.returncode == 0, built.stdout + built.stderr
    assert _has_gfx90a_code(out / "build" / "randsparse")


def test_make_builds_for_gfx90a(tmp_path: Path) -> None:
    out = _migrated(tmp_path, "package")
    rocm = str(Path(HIPCC or "").resolve().parent.parent)
    built = _run(["make", f"ROCM_PATH={rocm}", f"WITH_CUB={1 if HIPCUB else 0}", "-j2"], out)
    assert built.returncode == 0, built.stdout + built.stderr
    assert _has_gfx90a_code(out / "randsparse_make")
    assert "nvcc" not in built.stdout


@pytest.mark.skipif(CMAKE is None, reason="needs cmake")
def test_cmake_language_style_needs_hip_lang(tmp_path: Path) -> None:
    out = _migrated(tmp_path, "language")
    text = (out / "CMakeLists.txt").read_text(encoding="utf-8")
    assert "LANGUAGES CXX HIP" in text and "CMAKE_HIP_ARCHITECTURES gfx90a" in text
    done = _run([CMAKE, "-S", str(out), "-B", str(out / "build"), f"-DWITH_CUB={'ON' if HIPCUB else 'OFF'}"], out)
    rocm_root = Path(HIPCC or "").resolve().parent.parent
    if (rocm_root / "lib" / "cmake" / "hip-lang" / "hip-lang-config.cmake").exists():
        assert done.returncode == 0, done.stdout + done.stderr
        built = _run([CMAKE, "--build", str(out / "build"), "-j2"], out)
        assert built.returncode == 0, built.stdout + built.stderr
    else:  # Debian 12: hip-lang lives in lib/x86_64-linux-gnu/cmake, which CMake's HIP support does not search
        assert done.returncode != 0
        assert "hip-lang-config.cmake" in done.stdout + done.stderr


def test_cuda_original_builds_with_nvcc_where_the_libraries_are(tmp_path: Path) -> None:
    nvcc = shutil.which("nvcc")
    if nvcc is None or CMAKE is None:
        pytest.skip("needs nvcc and cmake (the GPU machine builds the original)")
    include = Path(nvcc).resolve().parent.parent / "include"
    missing = [h for h in ("curand.h", "cusparse.h") if not (include / h).exists()]
    if missing:
        pytest.skip(f"this CUDA toolkit lacks {', '.join(missing)} (a toolkit-only install)")
    done = _run([CMAKE, "-S", str(PROJECT), "-B", str(tmp_path / "b")], tmp_path)
    assert done.returncode == 0, done.stderr
    assert _run([CMAKE, "--build", str(tmp_path / "b"), "-j2"], tmp_path).returncode == 0
