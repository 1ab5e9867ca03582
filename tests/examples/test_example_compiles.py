"""Every .cu file of the bundled example compiles with the real nvcc (the example is real CUDA)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from tests.examples.conftest import EXAMPLE

NVCC = shutil.which("nvcc")
CU_FILES = sorted(EXAMPLE.rglob("*.cu"))
#: headers of CUDA libraries that a plain CUDA toolkit install may lack (pip wheels ship them separately)
OPTIONAL_HEADERS = {"cublas_v2.h", "cublasLt.h", "nccl.h", "cudnn.h"}
MISSING_HEADER = re.compile(r"fatal error: ([\w./]+): No such file or directory")


def _compile(source: Path, out: Path) -> subprocess.CompletedProcess[str]:
    include = ["-I", str(source.parent), "-I", str(EXAMPLE / "libgemm" / "include")]
    cmd = [str(NVCC), "-c", "-std=c++17", "-arch=sm_90", *include, "-o", str(out), str(source)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)


def test_example_has_cuda_sources() -> None:
    names = {p.name for p in CU_FILES}
    assert {"reduce_kernels.cu", "ptx_kernels.cu", "attention.cu", "gemm.cu", "topk.cu"} <= names


@pytest.mark.nvcc
@pytest.mark.skipif(NVCC is None, reason="nvcc not installed")
@pytest.mark.parametrize("source", CU_FILES, ids=lambda p: str(p.relative_to(EXAMPLE)))
def test_cu_file_compiles_with_nvcc(source: Path, tmp_path: Path) -> None:
    proc = _compile(source, tmp_path / "out.o")
    missing = MISSING_HEADER.search(proc.stderr)
    if proc.returncode != 0 and missing and Path(missing.group(1)).name in OPTIONAL_HEADERS:
        pytest.skip(f"{missing.group(1)} is not installed with this CUDA toolkit")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "out.o").stat().st_size > 0
