"""Must-flag / must-not-flag cases per analyzer, config and suppressions, binaries, CLI exit codes."""

from __future__ import annotations

import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from cuda2rocm.cli.main import main
from cuda2rocm.files.walk import Candidate
from cuda2rocm.rules import load_all
from cuda2rocm.scan.api import scan
from cuda2rocm.scan.filescan import scan_file


def _scan_text(tmp_path: Path, name: str, text: str) -> set[tuple[str, int]]:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    from cuda2rocm.files.classify import classify

    cand = Candidate(str(path), name, classify(name) or "yaml", path.stat().st_size)
    report = scan_file(cand, "MI300X", 2**24)
    assert not report.problems, report.problems
    return {(f.rule, f.line) for f in report.findings}


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        pytest.param("import torch\nif torch.cuda.get_device_capability()[0] >= 9: pass\n", {("C2R-P101", 2)},
                     id="capability-compare"),
        pytest.param("import torch\nname = torch.cuda.get_device_name()\nif 'H100' in name: pass\n",
                     {("C2R-P102", 2), ("C2R-P102", 3)}, id="device-name-tracked"),
        pytest.param("import cupy as cp\nk = cp.RawKernel('x', 'k')\n",
                     {("C2R-P106", 1), ("C2R-S106", 2), ("C2R-S202", 1)}, id="cupy"),
        pytest.param("import pycuda.autoinit\nfrom pycuda.compiler import SourceModule\nm = SourceModule('x')\n",
                     {("C2R-P106", 1), ("C2R-P106", 2), ("C2R-S108", 3), ("C2R-S201", 1), ("C2R-S201", 2)},
                     id="pycuda"),
        pytest.param("from torch.utils.cpp_extension import load\nm = load('ext', ['a.cu'])\n", {("C2R-S105", 2)},
                     id="cpp-extension-load"),
        pytest.param("import torch\ng = torch.cuda.CUDAGraph()\n", {("C2R-P107", 2)}, id="cuda-graph"),
        pytest.param("import tensorrt as trt\n", {("C2R-P108", 1), ("C2R-S201", 1)}, id="tensorrt"),
        pytest.param("import subprocess\nsubprocess.run(['nvidia-smi', '-L'])\n", {("C2R-D104", 2)}, id="nvidia-smi"),
    ],
)
def test_python_flags(tmp_path: Path, src: str, expected: set[tuple[str, int]]) -> None:
    from cuda2rocm.scan import plugins
    from cuda2rocm.scan.filefacts import FileFacts

    got = _scan_text(tmp_path, "m.py", src)
    report = FileFacts("m.py", "python")
    from cuda2rocm.scan.analyzers.python import scan_python

    scan_python(report, src)
    got |= {(f.rule, f.line) for f in plugins.resolve([report])[1]}
    assert got == expected


@pytest.mark.parametrize(
    "src",
    [
        pytest.param("# torch.cuda.get_device_capability() >= (8, 0)\n", id="comment"),
        pytest.param("print('install CUDA 12 and run nvidia-smi --help')\n", id="user-string"),
        pytest.param("import torch\ntorch.cuda.synchronize()\nok = torch.cuda.is_available()\n", id="torch-cuda"),
        pytest.param("import triton\n@triton.jit\ndef k(x):\n    pass\n", id="triton-kernel"),
        pytest.param("x = {'cuda': 1}\ndevice = 'cuda:0'\n", id="device-strings"),
        pytest.param("def f(:\n", id="syntax-error-is-not-a-finding"),
    ],
)
def test_python_must_not_flag(tmp_path: Path, src: str) -> None:
    assert _scan_text(tmp_path, "m.py", src) == set()


@pytest.mark.parametrize(
    ("name", "src", "expected"),
    [
        pytest.param("a.cpp", "// uses cudaMalloc\nconst char* s = \"cublasCreate\";\n", set(),
                     id="cpp-comment-string"),
        pytest.param("a.cpp", "#include <cuda_runtime.h>\nvoid f() { cudaDeviceSynchronize(); }\n",
                     {("C2R-S104", 1)}, id="cpp-runtime"),
        pytest.param("a.h", "#define CUDA_CHECK(x) x\nint custom(int current);\n", set(), id="user-macros"),
        pytest.param("a.cu", "#include <cudnn.h>\n__global__ void k() {}\n", {("C2R-S112", 1), ("C2R-S103", 2)},
                     id="cudnn-header"),
    ],
)
def test_cxx_cases(tmp_path: Path, name: str, src: str, expected: set[tuple[str, int]]) -> None:
    got = {x for x in _scan_text(tmp_path, name, src) if not x[0].startswith("C2R-K")}
    assert got == expected


def test_suppression_same_line_and_line_above(tmp_path: Path) -> None:
    src = "import pynvml  # cuda2rocm: ignore[C2R-P103]\n# cuda2rocm: ignore[C2R-P108]\nimport tensorrt\n"
    assert {r for r, _ in _scan_text(tmp_path, "m.py", src)} == set()
    other = "import pynvml  # cuda2rocm: ignore[C2R-P108]\n"
    assert _scan_text(tmp_path, "n.py", other) == {("C2R-P103", 1)}



@pytest.mark.parametrize("sep", ["\f\n", "/* \u2028 */\n", "// \x1c\n", "\r"])
def test_suppression_lines_are_the_findings_lines(tmp_path: Path, sep: str) -> None:
    # str.splitlines() counted a form feed (\u2028, \x1c...) as a line end and findings did not: the marker then
    # silenced the lines after the flagged one (found by fuzzing)
    body = ("__global__ void k(int* p) {\n  p[0] = __shfl_xor_sync(0xffffffff, p[1], 16);  // cuda2rocm: ignore[*]\n"
            "\n  int lane = threadIdx.x & 31;\n}\n")
    plain = _scan_text(tmp_path, "a.cu", body)
    shifted = _scan_text(tmp_path, "b.cu", sep + body)
    assert plain == {("C2R-S103", 1), ("C2R-K101", 4)}
    assert shifted == {(r, line + 1) for r, line in plain}

def test_config_include_exclude_and_disable(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "k.cu").write_text("__global__ void k() {}\n")
    (tmp_path / "b" / "k.cu").write_text("__global__ void k() {}\n")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.cuda2rocm]\nexclude = ["b/"]\ntarget-gpu = "MI250X"\ndisable = ["C2R-S103"]\n')
    result = scan(tmp_path)
    assert [f.path for f in result.files if f.language == "cuda"] == ["a/k.cu"]
    assert result.target_gpu == "MI250X"
    assert not [f for f in result.findings if f.rule == "C2R-S103"]
    assert [f.path for f in scan(tmp_path, exclude=["a/"]).files if f.language == "cuda"] == []


def test_gitignore_nested_and_skip_dirs(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("gen/\n")
    for d in ("gen", "src", "node_modules/x", "src/.venv", "sub"):
        (tmp_path / d).mkdir(parents=True, exist_ok=True)
    (tmp_path / "sub" / ".gitignore").write_text("*.cuh\n")
    for f in ("gen/a.cu", "src/b.cu", "node_modules/x/c.cu", "src/.venv/d.cu", "sub/e.cuh", "sub/f.cu"):
        (tmp_path / f).write_text("__global__ void k() {}\n")
    assert [f.path for f in scan(tmp_path).files] == ["src/b.cu", "sub/f.cu"]


CC = shutil.which("gcc") or shutil.which("cc")


@pytest.fixture(scope="module")
def elf_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not CC or not shutil.which("objcopy"):
        pytest.skip("needs a C compiler and objcopy")
    root = tmp_path_factory.mktemp("bins")
    (root / "stub.c").write_text("int cudaMalloc(void** p, unsigned long n) { return 0; }\n")
    (root / "use.c").write_text("int cudaMalloc(void**, unsigned long);\nint f(void) { return cudaMalloc(0, 1); }\n")
    vendor = root / "vendor"
    vendor.mkdir()
    run = lambda *a: subprocess.run(a, check=True, cwd=root, capture_output=True)  # noqa: E731
    run(CC, "-shared", "-fPIC", "-o", "libcudart.so.12", "-Wl,-soname,libcudart.so.12", "stub.c")
    run(CC, "-shared", "-fPIC", "-o", "vendor/libfastgemm.so", "use.c", "-L.", "-l:libcudart.so.12")
    (root / "blob").write_bytes(b"\x50\xed\x55\xba" + bytes(60))
    run("objcopy", "--add-section", ".nv_fatbin=blob", "vendor/libfastgemm.so", "vendor/libkern.so")
    run(CC, "-c", "-fPIC", "-o", "vendor/use.o", "use.c")
    with zipfile.ZipFile(vendor / "fastgemm-1.0-cp311-cp311-linux_x86_64.whl", "w") as zf:
        zf.write(vendor / "libkern.so", "fastgemm/libkern.so")
    (vendor / "attn_sm80.cubin").write_bytes(b"\x7fELF" + bytes(60))
    for f in ("stub.c", "use.c", "blob", "libcudart.so.12"):
        (root / f).unlink()
    return root


def test_binaries(elf_tree: Path) -> None:
    result = scan(elf_tree)
    arts = {b.path: b for b in result.binaries}
    assert arts["vendor/libfastgemm.so"].cuda_libraries == ("libcudart.so.12",)
    assert arts["vendor/libkern.so"].has_fatbin
    assert arts["vendor/use.o"].kind == "elf-object" and arts["vendor/use.o"].cuda_libraries == ("libcudart",)
    got = {(f.rule, f.path) for f in result.findings}
    assert {("C2R-S301", "vendor/libfastgemm.so"), ("C2R-S302", "vendor/libkern.so"),
            ("C2R-S304", "vendor/fastgemm-1.0-cp311-cp311-linux_x86_64.whl"),
            ("C2R-S303", "vendor/attn_sm80.cubin")} <= got
    assert "5 closed CUDA binaries" in result.risk.signals and result.risk.level == "high"


def test_binary_with_source_is_not_flagged(elf_tree: Path, tmp_path: Path) -> None:
    shutil.copy(elf_tree / "vendor" / "libfastgemm.so", tmp_path / "libfastgemm.so")
    (tmp_path / "fastgemm.cu").write_text("__global__ void k() {}\n")
    result = scan(tmp_path)
    assert result.binaries[0].has_source and not [f for f in result.findings if f.rule.startswith("C2R-S30")]


def test_cli_exit_codes_and_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "k.cu").write_text("__global__ void k() { asm volatile(\"exit;\"); }\n")
    assert main(["scan", str(tmp_path), "-q"]) == 0
    assert main(["scan", str(tmp_path), "-q", "--fail-on", "info"]) == 1
    assert main(["scan", str(tmp_path / "missing")]) == 2
    assert main(["scan", str(tmp_path), "--format", "bogus"]) == 2
    out = tmp_path / "r.json"
    assert main(["scan", str(tmp_path), "--format", "json", "-o", str(out)]) == 0
    assert '"C2R-S103"' in out.read_text()
    assert main(["scan", str(tmp_path), "--format", "json", "-o", str(out)]) == 2  # no clobbering
    assert main(["scan", str(tmp_path), "--format", "sarif", "-o", str(out), "--force"]) == 0
    assert '"version": "2.1.0"' in out.read_text()
    bad = tmp_path / "c.toml"
    bad.write_text("[tool.cuda2rocm]\nmax_file_mb = -1\n")
    assert main(["scan", str(tmp_path), "--config", str(bad)]) == 2
    assert "max_file_mb" in capsys.readouterr().err


def test_scan_rules_are_documented() -> None:
    rules = [r for r in load_all().values() if r.id.startswith(("C2R-S", "C2R-P", "C2R-D", "C2R-E"))]
    assert len(rules) >= 35
    for r in rules:
        assert r.what.strip() and r.why.strip() and r.example.strip() and r.instead.strip(), r.id
        assert r.family in ("scan-inventory", "scan-plugins", "scan-binaries", "python", "deployment", "input")


def test_a_cu_file_that_is_already_hip_is_not_a_kernel_to_port(tmp_path: Path) -> None:
    """Over-report found on held-out projects: .cu files of a HIP project counted as CUDA kernels to port."""
    (tmp_path / "b.cu").write_text("#include <hip/hip_runtime.h>\n__global__ void k(float* y) { y[0] = 1.f; }\n"
                                   "int main() { float* y; hipMalloc(&y, 4);\n"
                                   "  hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0, y); }\n")
    (tmp_path / "c.cu").write_text("// hipMalloc in a comment is no HIP code\n__global__ void k(float* y) {}\n"
                                   "int main() { float* y; cudaMalloc(&y, 4); }\n")
    result = scan(tmp_path)
    rules_at = {(f.rule, f.path) for f in result.findings}
    assert ("C2R-S103", "b.cu") not in rules_at and ("C2R-S113", "b.cu") in rules_at
    assert ("C2R-S103", "c.cu") in rules_at
    assert result.stats["kernels"] == 1 and result.stats["hip_kernels"] == 1
    (tmp_path / "c.cu").unlink()
    assert scan(tmp_path).risk.level == "none"  # type: ignore[union-attr]


def test_a_library_with_only_headers_beside_it_is_closed(elf_tree: Path, tmp_path: Path) -> None:
    """Held-out projects: a vendored .so with its public headers (no source that builds it) was counted as
    "has source" because a header of the same name sat beside it."""
    root = tmp_path / "t"
    shutil.copytree(elf_tree, root)
    (root / "vendor" / "fastgemm.h").write_text("int fastgemm(void);\n")
    (root / "vendor" / "fastgemm").mkdir()
    (root / "vendor" / "fastgemm" / "api.hpp").write_text("int fastgemm_api(void);\n")
    arts = {b.path: b for b in scan(root).binaries}
    assert not arts["vendor/libfastgemm.so"].has_source
    (root / "vendor" / "fastgemm" / "gemm.cpp").write_text("int fastgemm(void) { return 0; }\n")
    arts = {b.path: b for b in scan(root).binaries}
    assert arts["vendor/libfastgemm.so"].has_source  # a translation unit in a directory named like it


def test_inventory_from_modules_node_labels_and_image_tags(tmp_path: Path) -> None:
    """Held-out projects: versions named by environment modules, the driver in Kubernetes node labels and CUDA
    builds in a project's own image tags were not inventoried; NVIDIA GPU tolerations were not reported."""
    (tmp_path / "run.sh").write_text("#!/bin/bash\nmodule load gcc/12 cuda/12.2 nccl/2.18.3-cuda12.2\n"
                                     "ml cudnn/8.9.7\npython train.py\n")
    (tmp_path / "pod.yaml").write_text(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  nodeSelector:\n"
        "    nvidia.com/cuda.driver.major: \"535\"\n  tolerations:\n  - key: nvidia.com/gpu\n    operator: Exists\n"
        "  containers:\n  - name: c\n    image: myorg/app:1.0-cu121\n  - name: d\n    image: myorg/cuda-tools:latest\n")
    result = scan(tmp_path)
    inv = {(c.kind, c.version, c.path, c.line) for c in result.inventory}
    assert {("cuda", "12.2", "run.sh", 2), ("nccl", "2.18.3", "run.sh", 2), ("cudnn", "8.9.7", "run.sh", 3),
            ("driver", "535", "pod.yaml", 7), ("cuda", "12.1", "pod.yaml", 13)} <= inv
    assert not [c for c in result.inventory if c.version == "12" or "cuda-tools" in c.name]  # gcc/12, no cu tag
    assert ("C2R-D102", 9) in {(f.rule, f.line) for f in result.findings if f.path == "pod.yaml"}
