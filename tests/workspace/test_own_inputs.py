"""Issue 30, class 11: a rewriting command never takes its own output as input. The ``<file>.orig`` backups an
in-place run leaves and the workspace's ``.cuda2rocm/`` records are not planned, so a second ``--write`` does
not migrate ``Dockerfile.orig`` and ``migrate PATH -o OUT`` run inside a workspace (recording on) resumes."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from cuda2rocm.cli.main import main
from cuda2rocm.files import own as files_own
from cuda2rocm.migrate import pipeline
from cuda2rocm.rewrite import plan as rewrite_plan
from cuda2rocm.workspace import store

DOCKERFILE = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN nvidia-smi\n"


def test_the_state_folders_are_the_ones_the_workspace_and_the_pipeline_write() -> None:
    assert files_own.STATE_DIRS == (store.STATE_DIR, pipeline.JOURNAL_DIR)


def test_a_second_write_leaves_the_backup_alone(tmp_path: Path) -> None:
    (tmp_path / "Dockerfile").write_text(DOCKERFILE)
    assert main(["--no-record", "migrate", "deploy", str(tmp_path), "--write", "-q"]) in (0, 1)
    assert (tmp_path / "Dockerfile.orig").read_text() == DOCKERFILE
    assert main(["--no-record", "migrate", "deploy", str(tmp_path), "--write", "-q"]) in (0, 1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Dockerfile", "Dockerfile.orig"]
    assert (tmp_path / "Dockerfile.orig").read_text() == DOCKERFILE
    # a .orig file with no original beside it is the project's own file, and a file named is always read
    (tmp_path / "Dockerfile").unlink()
    planned = rewrite_plan.plan([tmp_path], lambda rel: True).jobs
    assert [j.display for j in planned] == ["Dockerfile.orig"]


def _digest(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_recorded_pipeline_run_resumes_and_copies_no_records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    ws = tmp_path / "ws"
    assert main(["init", str(ws)]) == 0
    (ws / "a.cu").write_text("#include <cuda_runtime.h>\nvoid f(float **p) { cudaMalloc(p, 4); }\n")
    (ws / "Dockerfile").write_text(DOCKERFILE)
    monkeypatch.chdir(ws)
    out = tmp_path / "out"
    assert main(["migrate", ".", "-o", str(out), "--no-verify"]) in (0, 1)
    first = _digest(out)
    capsys.readouterr()
    assert main(["migrate", ".", "-o", str(out), "--no-verify"]) in (0, 1)
    said = capsys.readouterr()
    assert "restarted" not in said.out + said.err
    assert "resumed" in said.out + said.err
    assert not (out / store.STATE_DIR).exists()  # the input's records are not a file of the project
    assert {k: v for k, v in _digest(out).items() if not k.startswith(pipeline.JOURNAL_DIR)} == {
        k: v for k, v in first.items() if not k.startswith(pipeline.JOURNAL_DIR)}
    assert any((ws / store.STATE_DIR / "records").iterdir())  # recording was on


def test_scan_does_not_count_a_backup_as_a_project_file(tmp_path: Path) -> None:
    """Issue 32, class 5: scan walked ``Dockerfile.orig`` (a migrate backup) as a second Dockerfile and reported
    every finding twice. The walker leaves backups and state folders out for every command."""
    from cuda2rocm.scan.api import scan

    (tmp_path / "Dockerfile").write_text(DOCKERFILE)
    (tmp_path / "Dockerfile.orig").write_text(DOCKERFILE)
    (tmp_path / ".cuda2rocm").mkdir()
    (tmp_path / ".cuda2rocm" / "Dockerfile").write_text(DOCKERFILE)
    paths = {f.path for f in scan(tmp_path).findings}
    assert paths == {"Dockerfile"}, paths
    (tmp_path / "Dockerfile").unlink()  # a .orig with no original beside it is the project's own file
    assert {f.path for f in scan(tmp_path).findings} == {"Dockerfile.orig"}
