"""Shapes found by scanning public ML/CUDA projects (session 2 sweep), each reduced to inputs of our own."""

from __future__ import annotations

from pathlib import Path

from cuda2rocm.scan.api import scan
from cuda2rocm.scan.result import ScanResult


def _scan(tmp_path: Path, files: dict[str, str]) -> ScanResult:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return scan(tmp_path)


def _inventory(result: ScanResult) -> set[tuple[str, str, str, int]]:
    return {(c.kind, c.name, c.version, c.line) for c in result.inventory}


def _rules(result: ScanResult) -> list[tuple[str, int, str]]:
    return sorted((f.path, f.line, f.rule) for f in result.findings)


def test_base_image_named_through_build_args(tmp_path: Path) -> None:
    result = _scan(tmp_path, {"Dockerfile": "ARG CUDA_VERSION=12.8.1\n"
                              "ARG BASE=nvidia/cuda:${CUDA_VERSION}-devel-ubuntu22.04\nFROM ${BASE}\n"})
    assert ("image", "nvidia/cuda", "12.8.1-devel-ubuntu22.04", 3) in _inventory(result)
    assert ("Dockerfile", 3, "C2R-D101") in _rules(result)


def test_build_args_are_not_runtime_settings(tmp_path: Path) -> None:
    result = _scan(tmp_path, {"Dockerfile": "FROM ubuntu:22.04\nARG CUDA_CHANNEL=nvidia\n"
                              "ARG PYTORCH_CUDA_INDEX_BASE_URL=https://download.pytorch.org/whl\n"
                              "ARG NCCL_DEBUG=INFO\nENV CUDA_DEVICE_MAX_CONNECTIONS=1\n"})
    assert [r for _, line, r in _rules(result) if line < 5] == []
    assert ("Dockerfile", 5, "C2R-D108") in _rules(result)  # ENV reaches the containers


def test_ci_matrix_versions_and_template_pins(tmp_path: Path) -> None:
    result = _scan(tmp_path, {".github/workflows/ci.yml": (
        "jobs:\n  build:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n"
        "        cuda-version: ['11.8.0', '12.2.2']\n        torch-version: ['2.1.1', '2.2.0']\n    steps:\n"
        "      - run: pip install torch==${{ matrix.torch-version }} --index-url https://x.org/whl/cu121\n")})
    inventory = _inventory(result)
    assert {("cuda", "CUDA", "11.8.0", 6), ("cuda", "CUDA", "12.2.2", 6), ("framework", "PyTorch", "2.1.1", 7),
            ("framework", "PyTorch", "2.2.0", 7)} <= inventory
    assert not any("$" in version or "{" in version for _, _, version, _ in inventory)


def test_image_tags_with_a_bare_cudnn(tmp_path: Path) -> None:
    result = _scan(tmp_path, {"Dockerfile": "FROM nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04\n"})
    assert {("cudnn", "cuDNN", "", 1), ("os", "ubuntu", "22.04", 1), ("cuda", "CUDA", "12.4.1", 1)} <= \
        _inventory(result)


def test_the_projects_own_cuda_looking_names_are_not_apis(tmp_path: Path) -> None:
    result = _scan(tmp_path, {
        "common.h": "#pragma once\n#include <cublas_v2.h>\n#define cudaCheck(err) (cuda_check(err))\n"
                    "inline void cuda_check(cudaError_t e) {}\ncublasHandle_t cublas_handle;\n"
                    "#define cublasCheck(s) (void)(s)\n",
        "main.cu": '#include "common.h"\n__global__ void k() {}\n'
                   "void f() { cudaCheck(cudaGetLastError()); cublasCheck(cublasCreate(&cublas_handle)); "
                   "cudaFooBar(); }\n"})
    names = {(a.name, a.support, a.hip_name) for a in result.api_usage}
    assert {n for n, _, _ in names} == {"cublasCreate", "cublasHandle_t", "cublas_v2.h", "cudaError_t",
                                        "cudaFooBar", "cudaGetLastError"}
    assert ("cublas_v2.h", "supported", "hipblas/hipblas.h") in names  # headers map through the header table
    assert ("cudaFooBar", "unknown", "") in names
    assert not [f for f in result.findings if "cublas_handle" in f.message or "cublasCheck" in f.message]


def test_gpu_reservations_and_nccl_set_the_scale(tmp_path: Path) -> None:
    compose = _scan(tmp_path / "a", {"docker-compose.yml": (
        "services:\n  app:\n    image: myapp\n    deploy:\n      resources:\n        reservations:\n"
        "          devices:\n            - driver: nvidia\n              count: all\n"
        "              capabilities: [gpu]\n")})
    assert compose.deployment.scale == "multi-gpu"
    nccl = _scan(tmp_path / "b", {"ar.cu": "#include <nccl.h>\n"
                                  "void f(ncclComm_t* c, ncclUniqueId id) { ncclCommInitRank(c, 2, id, 0); }\n"})
    assert nccl.deployment.scale == "multi-gpu"


def test_version_queries_are_not_gpu_use_and_own_packages_are_not_plugins(tmp_path: Path) -> None:
    result = _scan(tmp_path, {
        "setup.py": "import torch\nfrom setuptools import setup\ncuda_version = torch.version.cuda\n"
                    "setup(name='flash_attn', packages=['flash_attn'])\n",
        "flash_attn/__init__.py": "",
        "flash_attn/ops.py": "from flash_attn.bert_padding import pad_input\n",
        "requirements.txt": "xformers==0.0.28\n"})
    assert result.deployment.scale == "none"
    assert [p.package for p in result.plugins] == ["xformers"]  # a dependency still counts


def test_linked_cuda_libraries_and_architecture_variables(tmp_path: Path) -> None:
    result = _scan(tmp_path, {
        "Makefile": "NVCC_LDFLAGS = -lcublas -lcublasLt -lnvidia-ml -lcudnn\nLIBS += -lnccl -lm -lcudart_static_x\n",
        "CMakeLists.txt": 'set(CUDA_SUPPORTED_ARCHS "7.5;8.0;9.0")\n'
                          "target_link_libraries(app PRIVATE cublas nccl pthread my_cublas_wrapper)\n"})
    messages = {(f.path, f.line, f.rule): f.message for f in result.findings}
    assert messages[("Makefile", 1, "C2R-S111")] == "links CUDA libraries -lcublas, -lcublasLt, -lnvidia-ml, -lcudnn"
    assert messages[("Makefile", 2, "C2R-S111")] == "links CUDA libraries -lnccl"
    assert messages[("CMakeLists.txt", 2, "C2R-S111")] == "links CUDA libraries cublas, nccl"
    assert ("CMakeLists.txt", 1, "C2R-S110") in messages


def test_python_running_nvcc_and_unknown_cuda_packages(tmp_path: Path) -> None:
    result = _scan(tmp_path, {
        "setup.py": "import subprocess\nfrom torch.utils.cpp_extension import CUDA_HOME\n"
                    "subprocess.check_output([CUDA_HOME + '/bin/nvcc', '-V'])\nprint('nvcc is needed to build')\n",
        "requirements.txt": "nvidia-cutlass-dsl==4.7.1\nnvidia-cublas-cu12==12.4.5.8\nrequests==2.32\n"})
    assert ("setup.py", 3, "C2R-S111") in _rules(result) and ("setup.py", 4, "C2R-S111") not in _rules(result)
    s204 = [(f.path, f.line) for f in result.findings if f.rule == "C2R-S204"]
    assert s204 == [("requirements.txt", 1)]  # the CUDA library wheel on line 2 is S102, requests is nothing


def test_cuda_installed_by_script(tmp_path: Path) -> None:
    result = _scan(tmp_path, {"install_cuda.sh": (
        "#!/bin/bash\n# apt install cuda-toolkit-11-8 (old notes)\n"
        "wget https://example.com/cuda-repo-ubuntu2204-12-0-local_12.0.0-525.60.13-1_amd64.deb\n"
        "apt install -y cuda-nvcc-12-0 cuda-libraries-dev-12-0\nsh cuda_12.4.1_550.54.15_linux.run --silent\n")})
    assert {("cuda", "CUDA", "12.0.0", 3), ("driver", "NVIDIA driver", "525.60.13", 3), ("cuda", "CUDA", "12.0", 4),
            ("cuda", "CUDA", "12.4.1", 5), ("driver", "NVIDIA driver", "550.54.15", 5)} == _inventory(result)


def test_dev_container_with_comments(tmp_path: Path) -> None:
    result = _scan(tmp_path, {".devcontainer/devcontainer.json": (
        '{\n  // a CUDA dev box; "--gpus" in a comment is not a flag\n'
        '  "image": "nvidia/cuda:12.4.1-devel-ubuntu22.04",\n'
        '  "features": {"ghcr.io/devcontainers/features/nvidia-cuda:1": {}},\n'
        '  /* block comment */ "runArgs": ["--gpus", "all"]\n}\n')})
    assert _rules(result) == [(".devcontainer/devcontainer.json", 3, "C2R-D101"),
                              (".devcontainer/devcontainer.json", 4, "C2R-D101"),
                              (".devcontainer/devcontainer.json", 5, "C2R-D105")]
    assert result.deployment.scale == "multi-gpu"


def test_malformed_dev_container_is_a_per_file_problem(tmp_path: Path) -> None:
    result = _scan(tmp_path, {"devcontainer.json": '{"image": "nvidia/cuda:12.4.1-devel",\n',
                              "Dockerfile": "FROM nvidia/cuda:12.1.0-devel\n"})
    assert [p.path for p in result.problems] == ["devcontainer.json"]
    assert ("Dockerfile", 1, "C2R-D101") in _rules(result)


def test_conda_installs_in_run_lines_with_build_args(tmp_path: Path) -> None:
    result = _scan(tmp_path, {"Dockerfile": (
        "FROM ubuntu:22.04\nARG PYTORCH_VERSION=2.1.1\n"
        'RUN conda install -c pytorch -c nvidia "pytorch=$PYTORCH_VERSION" "pytorch-cuda=12.1" && conda clean -ya\n')})
    assert {("framework", "PyTorch", "2.1.1", 3), ("cuda", "CUDA", "12.1", 3)} <= _inventory(result)
    assert ("Dockerfile", 3, "C2R-S102") in _rules(result)


def test_proof_of_concept_prefers_a_single_gpu_file(tmp_path: Path) -> None:
    result = _scan(tmp_path, {
        "nccl_all_reduce.cu": "#include <nccl.h>\n" + "void f(ncclComm_t c) { ncclCommDestroy(c); }\n" * 30,
        "gelu.cu": "__global__ void gelu(float* x) { x[threadIdx.x] *= 0.5f; }\n"})
    assert result.risk is not None
    assert "gelu.cu (largest CUDA file)" in result.risk.poc_recommendation


def test_plugins_installed_from_git(tmp_path: Path) -> None:
    result = _scan(tmp_path, {"Dockerfile": (
        "FROM rocm/pytorch:latest\n"
        "RUN pip install git+https://github.com/state-spaces/mamba@v2.2.4 bitsandbytes==0.43.1\n"
        "RUN pip install git+https://github.com/someone/unknown-thing.git\n")})
    plugins = {(p.name, p.version, p.line) for p in result.plugins}
    assert {("mamba-ssm", "2.2.4", 2), ("bitsandbytes", "0.43.1", 2)} <= plugins
    assert len(plugins) == 2


def test_second_sweep_python_shapes(tmp_path: Path) -> None:
    result = _scan(tmp_path, {"g.py": (
        "import torch\nclass G:\n    def __init__(self):\n        self.name = torch.cuda.get_device_name(0)\n"
        "        self.n = 3\n        self.cap = torch.cuda.get_device_capability()\n"
        "    def big(self):\n        return self.n > 2\n    def ampere(self):\n        return self.cap >= (8, 0)\n"
        "caps = sorted(torch.cuda.get_device_capability(i) for i in range(torch.cuda.device_count()))\n")})
    messages = {(f.line, f.rule): f.message for f in result.findings}
    assert (8, "C2R-P102") not in messages  # self.n is not the device name
    assert messages[(10, "C2R-P101")].startswith("compares self.cap")
    assert "queried" in messages[(11, "C2R-P101")]  # `for i in` is not a comparison


def test_second_sweep_dockerfile_and_ci_shapes(tmp_path: Path) -> None:
    result = _scan(tmp_path, {
        "Dockerfile": ("FROM pytorch/pytorch:2.1.2-cuda12.1-cudnn8-devel\nRUN apt-get update && \\\n"
                       "    pip install flash-attn==2.5.8 \\\n        nvidia-ml-py3\n"
                       "RUN conda install -y -c pytorch \\\n    cudatoolkit=9.2 \\\n"
                       '    "pytorch=1.2.0=py3.6_cuda9.2.148_cudnn7.6.2_0"\n'),
        "setup_env.sh": "pip install deepspeed==0.14.0\npython -c 'import deepspeed'\n",
        ".gitlab-ci.yml": (".a: &A {tags: [gpu]}\n.b: &B {stage: test}\njob:\n  <<: *A\n  <<: *B\n"
                           "  script: [nvidia-smi]\n"),
        ".github/workflows/b.yml": ("jobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: python -m pip "
                                    "install --index-url ${{ matrix.cuda.torch-index }} torch~=2.5.0\n")})
    inventory = _inventory(result)
    assert {("framework", "PyTorch", "2.1.2", 1), ("cuda", "CUDA", "12.1", 1), ("cudnn", "cuDNN", "8", 1),
            ("cuda", "CUDA", "9.2", 5), ("framework", "PyTorch", "1.2.0", 5)} <= inventory
    rules = _rules(result)
    assert ("Dockerfile", 1, "C2R-D101") in rules and ("Dockerfile", 2, "C2R-P103") in rules  # nvidia-ml-py3
    assert not [r for r in rules if r[2] in ("C2R-S204", "C2R-D106")]  # no unknown-package, no launcher
    assert (".gitlab-ci.yml", 6, "C2R-D104") in rules  # nvidia-smi survives the duplicate merge keys
    assert {p.name for p in result.plugins} == {"flash-attention", "deepspeed"}  # pip install deepspeed is one


def test_an_existing_rocm_path_is_recorded_and_lowers_the_effort(tmp_path: Path) -> None:
    kernel = "#include <cuda_runtime.h>\n// __HIP_PLATFORM_AMD__ only in a comment\n__global__ void k() {}\n"
    setup = "import torch\nif torch.version.cuda:\n    ok = torch.cuda.is_available()\n"
    plain = _scan(tmp_path / "a", {"k.cu": kernel, "CMakeLists.txt": "enable_language(CUDA)\n", "setup.py": setup})
    ported = _scan(tmp_path / "b", {
        "k.cu": kernel.replace("__global__", "#if defined(__HIP_PLATFORM_AMD__)\n#include <hip/hip_runtime.h>\n"
                               "#endif\n__global__"),
        "CMakeLists.txt": "if(BUILD_HIP)\n  enable_language(HIP)\nelse()\n  enable_language(CUDA)\nendif()\n",
        "setup.py": "import torch\nif torch.version.hip:\n    ok = torch.cuda.is_available()\n"})
    assert not [f for f in plain.findings if f.rule == "C2R-S113"]
    s113 = sorted((f.path, f.line) for f in ported.findings if f.rule == "C2R-S113")
    assert s113 == [("CMakeLists.txt", 2), ("k.cu", 3), ("setup.py", 2)]
    assert plain.risk is not None and ported.risk is not None
    assert "start from the existing ROCm path" in ported.risk.poc_recommendation
    assert "existing ROCm path" not in plain.risk.poc_recommendation
    assert ported.risk.effort_person_days[1] < plain.risk.effort_person_days[1]


def test_nvidia_driver_files_and_system_packages(tmp_path: Path) -> None:
    result = _scan(tmp_path, {"run.sh": "cat /proc/driver/nvidia/version\n# apt install nv_peer_mem (old)\n",
                              "Dockerfile": "FROM ubuntu:22.04\nRUN apt-get install -y libcupti-dev nv_peer_mem\n"})
    assert _rules(result) == [("Dockerfile", 2, "C2R-D109"), ("Dockerfile", 2, "C2R-D109"),
                              ("run.sh", 1, "C2R-D104")]


def test_nvcc_flag_dictionaries_are_not_nvcc_runs(tmp_path: Path) -> None:
    result = _scan(tmp_path, {"setup.py": (
        "from torch.utils.cpp_extension import CUDAExtension\n"
        "ext = CUDAExtension('k', ['k.cu'], extra_compile_args={'cxx': ['-O3'], 'nvcc': ['-O3']})\n"
        "import subprocess\nsubprocess.run(['nvcc', '--version'])\n")})
    assert [(f.line, f.rule) for f in result.findings if f.rule == "C2R-S111"] == [(4, "C2R-S111")]


def test_text_report_prints_brackets_literally(tmp_path: Path) -> None:
    from cuda2rocm.report import render

    result = _scan(tmp_path, {"run [gpu].sh": "#!/bin/bash\ndocker run --gpus all -it img bash\n"})
    text = render(result, "text")
    assert "[/dev/kfd, /dev/dri]" in text and "run [gpu].sh" in text


def test_third_sweep_deployment_shapes(tmp_path: Path) -> None:
    result = _scan(tmp_path, {
        "job.sbatch": ("#!/bin/bash\n#SBATCH --job-name=x\n#SBATCH --time=01:00:00\n#SBATCH --nodes=2\n"
                       "#SBATCH --gres=gpu:a100:8\npython train.py\n"),
        "job2.sh": "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gpus-per-node=8\npython train.py\n",
        "chart/Chart.yaml": "apiVersion: v2\nname: demo\n",
        "chart/values.yaml": ("driver:\n  repository: nvcr.io/nvidia\n  image: driver\n  version: \"550.54.15\"\n"
                              "image:\n  repository: rayproject/ray-ml\n  tag: 2.9.0-gpu\n"),
        "rocm/Dockerfile": ("FROM rocm/dev-ubuntu-20.04:5.6\nARG ROCM=5.6\n"
                            "RUN pip install torch==2.1.0 --extra-index-url https://download.pytorch.org/whl/rocm$ROCM\n")})
    d106 = sorted((f.path, f.line, f.message) for f in result.findings if f.rule == "C2R-D106")
    assert d106 == [("job.sbatch", 2, "Slurm batch job launch (multi-node; nodes=2, gpus/node=8)"),
                    ("job2.sh", 2, "Slurm batch job launch (multi-gpu; nodes=1, gpus/node=8)")]
    assert {("chart/values.yaml", 2, "C2R-D101"), ("chart/values.yaml", 6, "C2R-D101"),
            ("rocm/Dockerfile", 1, "C2R-S113")} <= set(_rules(result))
    assert {("driver", "NVIDIA driver", "550.54.15", 2), ("rocm", "ROCm", "5.6", 3)} <= _inventory(result)
    assert result.deployment.scale == "kubernetes"  # the Helm chart outranks the Slurm jobs


def test_ray_clusters_and_accelerate_configs(tmp_path: Path) -> None:
    result = _scan(tmp_path, {
        "cluster.yaml": ("max_workers: 4\ndocker:\n  image: rayproject/ray-ml:latest-gpu\navailable_node_types:\n"
                         "  gpu_worker:\n    min_workers: 2\n    resources: {\"GPU\": 8}\n    node_config:\n"
                         "      InstanceType: p4d.24xlarge\n  cpu_head:\n    node_config:\n"
                         "      InstanceType: m5.large\n"),
        "accelerate_config.yaml": "distributed_type: MULTI_GPU\nnum_machines: 2\nnum_processes: 16\n"})
    assert _rules(result) == [("cluster.yaml", 3, "C2R-D101"), ("cluster.yaml", 9, "C2R-D102")]
    assert result.deployment.scale == "multi-node"


def test_plugins_built_from_a_cloned_repository(tmp_path: Path) -> None:
    result = _scan(tmp_path, {"Dockerfile": (
        "FROM ubuntu:22.04\nRUN git clone https://github.com/NVIDIA/apex.git && cd apex && pip install -v ./\n"
        "RUN git clone --depth 1 https://github.com/Dao-AILab/flash-attention && cd flash-attention && pip install .\n"
        "RUN git clone https://github.com/someone/tools.git\n")})
    assert sorted((p.name, p.line) for p in result.plugins) == [("apex", 2), ("flash-attention", 3)]


def test_guarded_capability_checks_and_cuda_library_paths(tmp_path: Path) -> None:
    result = _scan(tmp_path, {
        "caps.py": ("import torch\ndef a(t):\n"
                    "    return t.backend == \"cuda\" and torch.cuda.get_device_capability()[0] >= 9\n"
                    "def b():\n    return torch.cuda.get_device_capability() >= (8, 0)\n"),
        "Dockerfile": ("FROM ubuntu:22.04\nENV LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH\n"
                       "ENV PATH=/opt/x:$PATH\n")})
    assert _rules(result) == [("Dockerfile", 2, "C2R-D108"), ("caps.py", 5, "C2R-P101")]


def test_onnxruntime_gpu_is_the_cuda_build(tmp_path: Path) -> None:
    result = _scan(tmp_path, {
        "requirements.txt": "onnxruntime-gpu>=1.13.1\nonnxruntime==1.20.0\n",
        "infer.py": ('import onnxruntime as ort\n'
                     'sess = ort.InferenceSession("m.onnx",\n'
                     '                            providers=["CUDAExecutionProvider", "CPUExecutionProvider"])\n'
                     '# providers=["CUDAExecutionProvider"] in a comment is not code\n')})
    plugins = {p.package: p.rocm_support for p in result.plugins}
    assert plugins == {"onnxruntime-gpu": "alternative", "onnxruntime": "native_upstream"}
    assert [(f.path, f.line) for f in result.findings if f.rule == "C2R-P109"] == [("infer.py", 3)]


def test_direct_url_wheels(tmp_path: Path) -> None:
    result = _scan(tmp_path, {"requirements.txt": (
        "xformers @ https://download.pytorch.org/whl/cu121/xformers-0.0.28.post1-cp311-cp311-manylinux_2_28_x86_64.whl\n"
        "torch @ https://download.pytorch.org/whl/cu118/torch-2.1.0%2Bcu118-cp310-cp310-linux_x86_64.whl\n")})
    assert {("cuda", "CUDA", "12.1", 1), ("cuda", "CUDA", "11.8", 2), ("framework", "PyTorch", "2.1.0", 2)} == \
        _inventory(result)
    assert {(p.package, p.version) for p in result.plugins} == {("xformers", "0.0.28.post1")}
    assert [line for _, line, rule in _rules(result) if rule == "C2R-S102"] == [1, 2]


def test_triton_num_warps_above_sixteen(tmp_path: Path) -> None:
    result = _scan(tmp_path, {"k.py": (
        "import triton\ndef settings(BLOCK_SIZE):\n    num_warps = 32 if BLOCK_SIZE >= 32768 else 4\n"
        "    return num_warps\ncfg = triton.Config({'BLOCK': 128}, num_warps=32)\n"
        "ok = triton.Config({'BLOCK': 64}, num_warps=8)\n")})
    assert [(f.line, f.rule) for f in result.findings] == [(3, "C2R-P110"), (5, "C2R-P110")]
