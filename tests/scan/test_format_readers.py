"""Scan analyzers read build and deploy files through source/formats: positions come from the readers."""

from __future__ import annotations

from pathlib import Path

import pytest

from cuda2rocm.files.classify import classify
from cuda2rocm.files.walk import Candidate
from cuda2rocm.scan import rules
from cuda2rocm.scan.filefacts import FileFacts
from cuda2rocm.scan.filescan import scan_file


def _scan(tmp_path: Path, name: str, text: str) -> FileFacts:
    path = tmp_path / name
    path.write_text(text)
    return scan_file(Candidate(str(path), name, classify(name) or "yaml", path.stat().st_size), "MI300X", 2**24)


@pytest.mark.parametrize(
    ("text", "line", "needle"),
    [
        pytest.param("FROM\nRUN echo hi\n", 1, "FROM needs a base image", id="empty-from"),
        pytest.param("FROM ubuntu:22.04\nRUN [\"nvidia-smi\", -L]\n", 2, "JSON (exec) form", id="broken-json-run"),
        pytest.param("FROM ubuntu:22.04\nCMD [\"python\" \"x.py\"]\n", 2, "JSON (exec) form", id="broken-json-cmd"),
    ],
)
def test_malformed_dockerfiles_are_input_problems(tmp_path: Path, text: str, line: int, needle: str) -> None:
    report = _scan(tmp_path, "Dockerfile", text)
    assert [(p.line, p.extra["rule"]) for p in report.problems] == [(line, "C2R-E105")]
    assert needle in report.problems[0].message
    assert ("C2R-E105", line) in {(f.rule, f.line) for f in report.findings}


def test_nccl_variable_on_a_continued_run_line_is_reported_at_its_line(tmp_path: Path) -> None:
    text = ("FROM ubuntu:22.04\nRUN pip install torch && \\\n    export NCCL_IB_DISABLE=1 && \\\n"
            "    NCCL_DEBUG=INFO python train.py\n")
    report = _scan(tmp_path, "Dockerfile", text)
    got = {(f.line, f.col) for f in report.findings if f.rule == "C2R-D103"}
    assert got == {(3, 12), (4, 5)}


def test_nccl_variable_on_a_continued_script_line_is_reported_at_its_line(tmp_path: Path) -> None:
    text = "#!/bin/bash\ntorchrun --nproc_per_node=8 \\\n  train.py \\\n  && NCCL_ALGO=Tree python eval.py\n"
    report = _scan(tmp_path, "launch.sh", text)
    assert {(f.line, f.col) for f in report.findings if f.rule == "C2R-D103"} == {(4, 6)}
    assert {f.line for f in report.findings if f.rule == "C2R-D106"} == {2}  # a launch is reported at its start


def test_shell_comments_and_quotes_come_from_the_reader(tmp_path: Path) -> None:
    text = "echo \"not # a comment: NCCL_DEBUG=INFO\" # nvidia-smi here is a comment\nnvidia-smi -L  # real\n"
    report = _scan(tmp_path, "run.sh", text)
    assert {(f.rule, f.line) for f in report.findings} >= {("C2R-D103", 1), ("C2R-D104", 2)}
    assert ("C2R-D104", 1) not in {(f.rule, f.line) for f in report.findings}


def test_cmake_bracket_argument_with_parentheses(tmp_path: Path) -> None:
    text = "message([==[ a ) b ]==])\nproject(app LANGUAGES CXX CUDA)\n"
    report = _scan(tmp_path, "CMakeLists.txt", text)
    assert not report.problems
    assert ("C2R-S111", 2) in {(f.rule, f.line) for f in report.findings}


def test_make_continued_assignment_reports_each_physical_line(tmp_path: Path) -> None:
    text = "LDFLAGS := -lcudart \\\n  -lcublas\nall:\n\tnvcc -arch=sm_80 -o app app.cu \\\n\t  -lcurand\n"
    report = _scan(tmp_path, "Makefile", text)
    got = {(f.rule, f.line, f.col) for f in report.findings}
    assert {("C2R-S111", 1, 12), ("C2R-S111", 2, 3), ("C2R-S110", 4, 7), ("C2R-S111", 5, 4)} <= got
    assert "nvcc" in report.tags


def test_rules_are_objects() -> None:
    assert rules.D103.id == "C2R-D103" and rules.E105.family == "input"
    with pytest.raises(AttributeError):
        rules.D999  # noqa: B018  (a misspelt rule is an error, not a silent finding)


def test_pyproject_values_are_reported_where_they_are_written(tmp_path: Path) -> None:
    text = ('# we used to pin "torch==2.1.0+cu121" here\n[project]\nname = "x"\ndependencies = [\n'
            '  "numpy",\n  "torch==2.1.0+cu121",\n]\n[tool.poetry.dependencies]\n# cupy-cuda12x = "*"\n'
            'cupy-cuda12x = "13.0"\n')
    report = _scan(tmp_path, "pyproject.toml", text)
    assert {(f.rule, f.line) for f in report.findings if f.rule == "C2R-S102"} == {("C2R-S102", 6), ("C2R-S102", 10)}


def test_yaml_anchor_merged_into_a_service_is_reported_at_the_anchor(tmp_path: Path) -> None:
    text = ("x-gpu: &gpu\n  runtime: nvidia\n  environment:\n    NCCL_DEBUG: INFO\nservices:\n  a:\n    <<: *gpu\n"
            "    image: nvidia/cuda:12.1.0-base\n")
    report = _scan(tmp_path, "docker-compose.yml", text)
    got = {(f.rule, f.line) for f in report.findings}
    assert {("C2R-D105", 2), ("C2R-D103", 4), ("C2R-D101", 8)} <= got
    assert all(f.line > 0 for f in report.findings)  # merged keys keep the line they are written on


def test_yaml_undefined_alias_is_an_input_problem_and_the_rest_is_scanned(tmp_path: Path) -> None:
    report = _scan(tmp_path, "docker-compose.yml", "a:\n  b: *missing\nc:\n  runtime: nvidia\n")
    assert [(p.line, "undefined alias" in p.message) for p in report.problems] == [(2, True)]
    assert ("C2R-D105", 4) in {(f.rule, f.line) for f in report.findings}


def test_record_analyzers_need_no_report() -> None:
    from cuda2rocm.scan.analyzers import build, dockerfile, shell, yamlfiles
    from cuda2rocm.scan.filefacts import Fact, Hit, Scale

    cmake = list(build.scan_cmake("find_package(CUDAToolkit 12.1 REQUIRED)\n"))
    assert Hit(rules.S101, 1, 1, "find_package(CUDAToolkit 12.1) requires the CUDA toolkit") in cmake
    assert Fact("cuda", "CUDA", "12.1", 1, "find_package(CUDAToolkit 12.1 REQUIRED)") in cmake
    assert any(isinstance(r, Scale) and r.scale == "multi-gpu" for r in shell.scan_text("export NCCL_DEBUG=INFO\n"))
    assert [r.rule.id for r in dockerfile.scan_dockerfile("FROM\n") if isinstance(r, (Hit,))] == []
    assert [type(r).__name__ for r in dockerfile.scan_dockerfile("FROM\n")] == ["Bad"]
    assert any(isinstance(r, Scale) and r.scale == "kubernetes" for r in yamlfiles.scan_yaml("a: 1\n", "c/Chart.yaml"))


def test_dockerfile_arg_without_default_pins_nothing(tmp_path: Path) -> None:
    report = _scan(tmp_path, "Dockerfile", "ARG CUDA_VERSION\nFROM nvidia/cuda:${CUDA_VERSION}-devel\n")
    assert not [c for c in report.components if c.line == 1]
    assert not [f for f in report.findings if f.line == 1]
