"""Makefile shapes seen in public CUDA projects (our own minimal cases, written from what a sweep of real
Makefiles showed). Several were wrong before: the targets of a second flags variable dropped (hipcc then builds
for its default target only), ``-Xcompiler="-Wall -fopenmp"`` left as one quoted clang argument, options after
``nvcc`` in a compiler variable kept (``-ccbin``, ``-gencode``), ``$(CUDA)/lib64`` kept for a variable set to
the toolkit's directory."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cuda2rocm.migrate.base import BuildOptions
from cuda2rocm.migrate.build import migrate_file
from cuda2rocm.source.edits import apply_edits

MAKEFILE = """\
V100 = -arch=sm_70
NVCCFLAGS=-std=c++17 -Xcompiler="-Wall -fopenmp"
NVCCFLAGS+=-gencode arch=compute_80,code=sm_80
NVCC = nvcc -ccbin g++ -gencode=arch=compute_70,code=sm_70
CUDA = /usr/local/cuda
LIBS = -L$(CUDA)/lib64 -lcudart -lcublas
SM ?= 50
NVFLAGS = -O3 -arch sm_$(SM) --relocatable-device-code=true

demo: demo.cu
\t$(NVCC) $(V100) demo.cu -o demo $(LIBS)
app: app.cu
\t$(NVCC) $(NVCCFLAGS) $(NVFLAGS) app.cu -o app
"""


def _migrated() -> str:
    done = migrate_file("Makefile", MAKEFILE, BuildOptions(gfx=("gfx942",)))
    assert not done.problems
    out = apply_edits(MAKEFILE, done.edits)
    assert apply_edits(out, migrate_file("Makefile", out, BuildOptions(gfx=("gfx942",))).edits) == out
    return out


def test_every_flags_variable_keeps_its_targets() -> None:
    out = _migrated()
    assert "V100 = --offload-arch=gfx942\n" in out
    assert "NVCCFLAGS+=--offload-arch=gfx942\n" in out
    assert "NVFLAGS = -O3 --offload-arch=gfx942 -fgpu-rdc\n" in out


def test_compiler_variable_options_are_translated() -> None:
    assert "NVCC = hipcc --offload-arch=gfx942\n" in _migrated()


def test_quoted_host_compiler_options_become_separate_options() -> None:
    assert "NVCCFLAGS=-std=c++17 -Wall -fopenmp\n" in _migrated()


def test_toolkit_directory_variable_libraries() -> None:
    out = _migrated()
    assert "CUDA = /opt/rocm\n" in out and "LIBS = -L$(CUDA)/lib -lamdhip64 -lhipblas\n" in out


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_migrated_makefile_runs_hipcc_with_the_targets(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text(_migrated())
    (tmp_path / "demo.cu").write_text("")
    (tmp_path / "app.cu").write_text("")
    done = subprocess.run(["make", "-n", "-B", "demo", "app"], cwd=tmp_path, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and all(ln.startswith("hipcc ") and "--offload-arch=gfx942" in ln for ln in lines)
    assert "nvcc" not in done.stdout and "sm_" not in done.stdout and '"' not in done.stdout
