"""The bundled example's build files migrate (examples/llm-service/libgemm/CMakeLists.txt: cuBLAS, cuBLASLt,
NCCL; examples/llm-service/setup.py: a CUDAExtension with nvcc options). They cannot be built here: hipBLAS,
hipBLASLt and RCCL are not packaged in Debian 12, nor is a ROCm build of PyTorch (the randsparse project in
test_real_build.py is what builds), so these tests check the migrated files themselves."""

from __future__ import annotations

from pathlib import Path

from cuda2rocm.migrate.base import BuildOptions
from cuda2rocm.migrate.build import migrate_build
from cuda2rocm.migrate.setup_py import migrate_setup_py
from cuda2rocm.rewrite.runner import Mode
from cuda2rocm.source.formats.cmake import read_cmake

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "llm-service"


def test_example_listfile_migrates() -> None:
    run = migrate_build(EXAMPLE, mode=Mode.DIFF, options=BuildOptions(gfx=("gfx942",)))
    assert not run.problems and not run.failed
    changed = {o.job.display: o for o in run.changed}
    assert sorted(changed) == ["libgemm/CMakeLists.txt", "requirements.txt", "setup.py"]
    outcome = changed["libgemm/CMakeLists.txt"]
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


def test_example_setup_py_migrates() -> None:
    """The extension's nvcc list loses what hipcc rejects; CUDAExtension itself stays (PyTorch hipifies on ROCm)."""
    run = migrate_build(EXAMPLE, mode=Mode.DIFF, options=BuildOptions(gfx=("gfx942",)))
    (outcome,) = [o for o in run.changed if o.job.display == "setup.py"]
    new = outcome.text or ""
    compile(new, "setup.py", "exec")  # still Python
    assert '"nvcc": ["-O3", "-ffast-math"],' in new
    assert '"cxx": ["-O3"],' in new and "CUDAExtension(" in new and "-gencode" not in new
    rules = sorted(f.rule for f in outcome.detail.findings)
    assert rules == ["C2R-B301", "C2R-B303", "C2R-B303", "C2R-B401"]
    # the migrated file migrates to itself
    assert not migrate_setup_py("setup.py", new, BuildOptions(gfx=("gfx942",))).edits
    assert not [f for f in run.for_review if f.path == "setup.py"]  # nothing left for a person in setup.py


def test_example_requirements_migrate() -> None:
    """The service's requirements: the CUDA index and torch build move to ROCm, NVIDIA's NCCL wheel goes, pynvml
    becomes amdsmi, and the GPU plugins are reported with the knowledge base's status, not changed."""
    run = migrate_build(EXAMPLE, mode=Mode.DIFF, options=BuildOptions(gfx=("gfx942",), rocm="6.4"))
    (outcome,) = [o for o in run.changed if o.job.display == "requirements.txt"]
    old = (EXAMPLE / "requirements.txt").read_text(encoding="utf-8").splitlines()
    new = (outcome.text or "").splitlines()
    # torch 2.1.2 is not on the ROCm 6.4 index: the nearest release it carries
    assert new[:2] == ["--extra-index-url https://download.pytorch.org/whl/rocm6.4", "torch==2.8.0+rocm6.4"]
    assert "amdsmi" in new and not [line for line in new if line.startswith(("nvidia-", "pynvml"))]
    assert [line for line in old if line.startswith(("flash-attn", "xformers", "bitsandbytes", "triton"))] == \
        [line for line in new if line.startswith(("flash-attn", "xformers", "bitsandbytes", "triton"))]
    plugins = {f.message.split()[0] for f in outcome.detail.findings if f.rule == "C2R-B606"}
    assert plugins == {"flash-attn", "bitsandbytes", "xformers", "triton"}
