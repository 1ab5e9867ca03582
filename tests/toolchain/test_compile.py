"""Real compiles with Debian's hipcc (HIP 5.2, gfx90a) and nvcc (CUDA 13, sm_90)."""

from __future__ import annotations

import pytest

from cuda2rocm.model import Edit
from cuda2rocm.toolchain import (
    ToolNotFound,
    apply_edits,
    compile_cuda,
    compile_hip,
    find_hipcc,
    hip_version,
    map_line,
    offload_archs,
)
from cuda2rocm.toolchain.compile import probe_arch, run_compiler

from .conftest import needs_hipcc, needs_nvcc

CUDA_WITH_ERROR = """#include <cuda_runtime.h>
#include <cstdio>

__global__ void scale(float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = a * x[i] + not_declared;
}

int main() {
    float* d = nullptr;
    cudaMalloc(&d, 16 * sizeof(float));
    scale<<<1, 16>>>(d, 2.0f, 16);
    cudaFree(d);
    return 0;
}
"""
GOOD_HIP = "#include <hip/hip_runtime.h>\n__global__ void k(int* p) { p[threadIdx.x] = warpSize; }\n"


def _translate_by_hand(text: str) -> list[Edit]:
    """Edits a translator would make; the banner adds lines so the line numbers really shift."""
    raw = text.encode()
    edits = [Edit(0, 0, "// translated by cuda2rocm\n// target: gfx90a\n\n")]
    for old, new in (("cuda_runtime.h", "hip/hip_runtime.h"), ("cudaMalloc", "hipMalloc"), ("cudaFree", "hipFree")):
        start = raw.index(old.encode())
        edits.append(Edit(start, start + len(old), new))
    return edits


@needs_hipcc
@pytest.mark.hipcc
def test_hip_version_and_targets():
    assert hip_version() is not None and hip_version() >= (5,)
    archs = offload_archs()
    assert "gfx90a" in archs


@needs_hipcc
@pytest.mark.hipcc
def test_compile_hip_ok():
    result = compile_hip(GOOD_HIP, arch="gfx90a")
    assert result.ok and result.returncode == 0 and result.errors == ()
    assert "HIP_PLATFORM" not in " ".join(result.command)  # set through the environment
    assert "--offload-arch=gfx90a" in result.command


@needs_hipcc
@pytest.mark.hipcc
def test_deliberate_error_maps_back_to_the_cuda_line():
    edits = _translate_by_hand(CUDA_WITH_ERROR)
    translated = apply_edits(CUDA_WITH_ERROR, edits)
    result = compile_hip(translated, arch="gfx90a")
    assert not result.ok
    [error] = [d for d in result.errors if "not_declared" in d.message]
    assert error.line == 9  # three banner lines above the CUDA line 6
    assert map_line(edits, CUDA_WITH_ERROR, translated, error.line) == 6
    assert "not_declared" in CUDA_WITH_ERROR.splitlines()[5]


@needs_hipcc
@pytest.mark.hipcc
def test_unknown_arch_is_a_failed_result(tmp_path):
    path = tmp_path / "k.hip"
    path.write_text(GOOD_HIP)
    result = compile_hip(path, arch="gfx9999")
    assert not result.ok and result.errors


@needs_hipcc
@pytest.mark.hipcc
@pytest.mark.parametrize("arch", ["gfx90a", "gfx940", "gfx942", "gfx1100"])
def test_bitcode_listing_agrees_with_a_real_probe(arch):
    """offload_archs() lists a target exactly when hipcc really compiles for it (Debian 12: gfx942 and
    gfx1100 have no device libraries; a full ROCm install lists and compiles both)."""
    assert probe_arch(arch) == (arch in offload_archs())


def test_timeout_and_missing_binary_are_results_not_exceptions(tmp_path):
    slow = run_compiler(["sleep", "5"], timeout=0.2, env=None)
    assert (slow.ok, slow.returncode) == (False, 124) and "timed out" in slow.errors[0].message
    missing = run_compiler([str(tmp_path / "no-such-compiler")], timeout=5, env=None)
    assert (missing.ok, missing.returncode) == (False, 127)


def test_missing_hipcc_raises_tool_not_found(monkeypatch):
    monkeypatch.setattr("cuda2rocm.toolchain.compile.find_hipcc", lambda: None)
    with pytest.raises(ToolNotFound):
        compile_hip(GOOD_HIP)


@needs_nvcc
@pytest.mark.nvcc
def test_nvcc_reports_the_same_error_line():
    result = compile_cuda(CUDA_WITH_ERROR)
    assert not result.ok
    assert [d.line for d in result.errors if "not_declared" in d.message] == [6]


@needs_nvcc
@pytest.mark.nvcc
def test_nvcc_compiles_valid_code():
    assert compile_cuda(CUDA_WITH_ERROR.replace(" + not_declared", "")).ok


def test_find_hipcc_prefers_rocm_path(monkeypatch, tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "hipcc"
    fake.write_text("#!/bin/sh\necho 'HIP version: 6.2.41133-dd7f95766'\n")
    fake.chmod(0o755)
    monkeypatch.setenv("ROCM_PATH", str(tmp_path))
    assert find_hipcc() == str(fake)
    assert hip_version(str(fake)) == (6, 2, 41133)


def test_rocm_discovery_reads_version_and_device_libraries(monkeypatch, tmp_path):
    """A ROCm tree laid out like /opt/rocm-6.2.4 (version file, device-library bitcode)."""
    from cuda2rocm.toolchain import find_rocm

    root = tmp_path / "rocm-6.2.4"
    (root / ".info").mkdir(parents=True)
    (root / ".info" / "version").write_text("6.2.4-120\n")
    bitcode = root / "amdgcn" / "bitcode"
    bitcode.mkdir(parents=True)
    for isa in ("942", "90a", "1100"):
        (bitcode / f"oclc_isa_version_{isa}.bc").write_bytes(b"BC")
    monkeypatch.setenv("ROCM_PATH", str(root))
    monkeypatch.delenv("HIP_PATH", raising=False)
    [install, *_] = find_rocm()
    assert (install.root, install.version, install.source) == (str(root), (6, 2, 4), "ROCM_PATH")
    assert offload_archs(str(root)) == ("gfx90a", "gfx942", "gfx1100")


def test_missing_source_file_is_a_failed_result_naming_it(tmp_path):
    from cuda2rocm.toolchain.compile import _compile

    result = _compile(["true"], str(tmp_path / "gone.cu"), ".cu", False, None, 5, None)
    assert not result.ok and result.returncode == 2
    assert result.errors[0].message == f"{tmp_path / 'gone.cu'}: no such file"


@needs_hipcc
@pytest.mark.hipcc
def test_non_utf8_source_echoed_in_errors_is_decoded_not_fatal(tmp_path):
    path = tmp_path / "latin1.hip"
    path.write_bytes(b"#include <hip/hip_runtime.h>\nint f() { return caf\xe9; }\n")
    result = compile_hip(path)
    assert not result.ok
    assert result.errors and result.errors[0].line == 2 and result.errors[0].path == str(path)
