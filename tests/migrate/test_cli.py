"""``cuda2rocm migrate build`` as a user runs it: diff by default, --write, -o, --check, bad input, bad targets."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cuda2rocm.cli.main import main

PROJECT = Path(__file__).parent / "projects" / "randsparse"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    dest = tmp_path / "proj"
    shutil.copytree(PROJECT, dest)
    return dest


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_default_prints_the_diff_and_writes_nothing(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _snapshot(project)
    assert main(["migrate", "build", str(project), "--offload-arch", "gfx942"]) == 0
    out, err = capsys.readouterr()
    assert "--- a/CMakeLists.txt" in out and "+project(randsparse VERSION 0.1 LANGUAGES CXX HIP)" in out
    assert "+NVCC ?= $(ROCM_PATH)/bin/hipcc" in out
    assert "would change 2" in err
    assert _snapshot(project) == before


def test_write_in_place_keeps_backups_and_is_idempotent(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    original = (project / "CMakeLists.txt").read_bytes()
    assert main(["migrate", "build", str(project), "--write", "--cmake-style", "package"]) == 0
    assert (project / "CMakeLists.txt.orig").read_bytes() == original
    migrated = (project / "CMakeLists.txt").read_text(encoding="utf-8")
    assert "find_package(hip REQUIRED)" in migrated and "CUDA::" not in migrated
    capsys.readouterr()
    assert main(["migrate", "build", str(project), "--check"]) == 0  # nothing left to change
    assert "would change 0" in capsys.readouterr().err


def test_output_directory_gets_a_migrated_copy(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(["migrate", "build", str(project), "-o", str(out)]) == 0
    assert (out / "Makefile").is_file() and (out / "CMakeLists.txt").is_file()
    assert "hipcc" in (out / "Makefile").read_text(encoding="utf-8")
    assert main(["migrate", "build", str(project), "-o", str(out)]) == 2  # exists: needs --force
    assert main(["migrate", "build", str(project), "-o", str(out), "--force"]) == 0


def test_check_exits_1_and_lists_the_files(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["migrate", "build", str(project), "--check"]) == 1
    err = capsys.readouterr().err
    assert "would change: CMakeLists.txt" in err and "would change: Makefile" in err


def test_malformed_file_is_named_and_left_alone(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = project / "cmake" / "broken.cmake"
    broken.parent.mkdir()
    broken.write_text("set(A 1)\nfind_package(CUDAToolkit REQUIRED\n", encoding="utf-8")
    before = broken.read_bytes()
    assert main(["migrate", "build", str(project), "--write", "--no-backup"]) == 2
    err = capsys.readouterr().err
    assert "cmake/broken.cmake:2:" in err and "never closed" in err
    assert broken.read_bytes() == before
    assert "hipcc" in (project / "Makefile").read_text(encoding="utf-8")  # the others are migrated


@pytest.mark.parametrize("args", [["--target-gpu", "H100"], ["--offload-arch", "sm_90"],
                                  ["--offload-arch", "gfx90a", "--target-gpu", "MI300X"]])
def test_bad_targets_are_usage_errors(project: Path, args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["migrate", "build", str(project), *args]) == 2
    assert "Error" in capsys.readouterr().err


def test_json_report_lists_findings_with_their_edits(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["migrate", "build", str(project), "--format", "json", "-q"]) == 0
    data = json.loads(capsys.readouterr().out)
    rules = {f["rule"] for f in data["findings"]}
    assert {"C2R-B101", "C2R-B104", "C2R-B105", "C2R-B201", "C2R-B203"} <= rules
    with_edits = [f for f in data["findings"] if f.get("remedy")]
    assert with_edits and all(f["remedy"]["applicability"] == "safe" for f in with_edits)


def test_target_gpu_names_map_through_the_knowledge_base(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["migrate", "build", str(project), "--target-gpu", "MI300X,MI250X"]) == 0
    out = capsys.readouterr().out
    assert "set(CMAKE_HIP_ARCHITECTURES gfx942;gfx90a)" in out
    assert "--offload-arch=gfx942 --offload-arch=gfx90a" in out
