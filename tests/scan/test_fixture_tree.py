"""Golden test: the exact (rule, file, line) list for a fixture tree covering every analyzer."""

from __future__ import annotations

from pathlib import Path

import pytest

from cuda2rocm.scan.api import scan

MINI = Path(__file__).parent / "fixtures" / "mini"

EXPECTED = {
    ("C2R-D107", ".github/workflows/ci.yml", 5),
    ("C2R-D107", ".github/workflows/ci.yml", 7),
    ("C2R-D104", ".github/workflows/ci.yml", 10),
    ("C2R-S111", "buildsys/CMakeLists.txt", 2),
    ("C2R-S101", "buildsys/CMakeLists.txt", 4),
    ("C2R-S110", "buildsys/CMakeLists.txt", 5),
    ("C2R-S110", "buildsys/Makefile", 1),
    ("C2R-D101", "deploy/Dockerfile", 1),
    ("C2R-D103", "deploy/Dockerfile", 2),
    ("C2R-D108", "deploy/Dockerfile", 3),
    ("C2R-S102", "deploy/Dockerfile", 4),
    ("C2R-D104", "deploy/Dockerfile", 5),
    ("C2R-D103", "deploy/docker-compose.yml", 5),
    ("C2R-D105", "deploy/docker-compose.yml", 10),
    ("C2R-D102", "deploy/job.yaml", 8),
    ("C2R-D101", "deploy/job.yaml", 11),
    ("C2R-D106", "deploy/job.yaml", 12),
    ("C2R-D102", "deploy/job.yaml", 15),
    ("C2R-D106", "deploy/train.sbatch", 2),
    ("C2R-D106", "deploy/train.sbatch", 5),
    ("C2R-S102", "environment.yml", 4),
    ("C2R-S203", "environment.yml", 6),
    ("C2R-P103", "py/risky.py", 2),
    ("C2R-P106", "py/risky.py", 4),
    ("C2R-P101", "py/risky.py", 8),
    ("C2R-P101", "py/risky.py", 9),
    ("C2R-P104", "py/risky.py", 10),
    ("C2R-P102", "py/risky.py", 11),
    ("C2R-P105", "py/risky.py", 13),
    ("C2R-D103", "py/risky.py", 14),
    ("C2R-S107", "py/risky.py", 19),
    ("C2R-S102", "requirements.txt", 1),
    ("C2R-S102", "requirements.txt", 2),
    ("C2R-S201", "requirements.txt", 3),
    ("C2R-S102", "requirements.txt", 5),
    ("C2R-S112", "src/kern.cu", 2),
    ("C2R-S103", "src/kern.cu", 4),
    ("C2R-S112", "src/kern.cu", 8),
    ("C2R-S104", "src/nccl_comm.cpp", 2),
    ("C2R-S112", "src/nccl_comm.cpp", 2),
    ("C2R-S112", "src/nccl_comm.cpp", 3),
    ("C2R-S112", "src/nccl_comm.cpp", 4),
}
#: rules owned by the hazards engine may add findings in .cu files; this test pins only the scan rules
SCAN_PREFIXES = ("C2R-S", "C2R-P", "C2R-D", "C2R-E")


@pytest.fixture(scope="module")
def result():
    return scan(MINI)


def test_exact_findings(result) -> None:
    got = {(f.rule, f.path, f.line) for f in result.findings if f.rule.startswith(SCAN_PREFIXES)}
    assert got == EXPECTED


def test_no_problems_and_every_file_classified(result) -> None:
    assert result.problems == ()
    langs = {f.path: f.language for f in result.files}
    assert langs["deploy/job.yaml"] == "k8s"
    assert langs["deploy/docker-compose.yml"] == "compose"
    assert langs[".github/workflows/ci.yml"] == "ci"
    assert langs["environment.yml"] == "conda"
    assert langs["deploy/train.sbatch"] == "shell"
    assert "cuda-in-cpp" in dict((f.path, f.tags) for f in result.files)["src/nccl_comm.cpp"]
    assert "src/host.cpp" in langs and "py/clean.py" in langs


def test_inventory_has_file_and_line(result) -> None:
    inv = {(c.kind, c.version, c.path, c.line) for c in result.inventory}
    assert ("cuda", "11.8", "buildsys/CMakeLists.txt", 4) in inv
    assert ("cuda", "12.3.2", "deploy/Dockerfile", 1) in inv  # NGC 24.01 via the bundled table
    assert ("cuda", "11.8.0", "deploy/job.yaml", 11) in inv
    assert ("cudnn", "8.9.2.26", "requirements.txt", 5) in inv
    assert ("framework", "2.0.1", "requirements.txt", 2) in inv
    assert ("cuda", "12.1", "environment.yml", 4) in inv


def test_deployment_and_baselines(result) -> None:
    assert result.deployment.scale == "kubernetes"
    assert any("nvidia.com/gpu: 8" in e for e in result.deployment.evidence)
    # 7 of 8 requirements are pinned
    assert result.baselines == {"tests": False, "pinned_versions": True, "benchmarks": False, "ci": True}


def test_kernels_and_api_usage(result) -> None:
    assert result.stats["kernels"] == 2  # scale (CUDA) + add_one (Numba)
    api = {a.name: a for a in result.api_usage}
    assert api["ncclAllReduce"].library == "nccl" and api["ncclAllReduce"].first_line == 4
    assert api["cufftDestroy"].hip_name == "hipfftDestroy"
    assert "cudaMalloc" not in api and "cudaFree" not in api  # only in a comment / a string


def test_suppression_counted(result) -> None:
    assert result.stats["suppressed"] == 1
