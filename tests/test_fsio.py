from __future__ import annotations

import os
from pathlib import Path

import pytest

from cuda2rocm.fsio import write_bytes_atomic, write_text_atomic


def test_writes_whole_file_and_leaves_no_temporaries(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "out.txt"
    write_text_atomic(target, "a\r\nb\n")
    assert target.read_bytes() == b"a\r\nb\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["out.txt"]


def test_refuses_to_clobber_without_force(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old")
    with pytest.raises(FileExistsError, match="--force"):
        write_text_atomic(target, "new", force=False)
    assert target.read_text() == "old"
    write_text_atomic(target, "new", force=True)
    assert target.read_text() == "new"


def test_keeps_mode_of_source(tmp_path: Path) -> None:
    source = tmp_path / "kernel.cu"
    source.write_text("x")
    os.chmod(source, 0o751)
    write_bytes_atomic(tmp_path / "kernel.cu.orig", source.read_bytes(), mode_from=source)
    assert (tmp_path / "kernel.cu.orig").stat().st_mode & 0o777 == 0o751


def test_failed_write_keeps_old_file(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old")
    with pytest.raises(TypeError):
        write_bytes_atomic(target, "not bytes")  # type: ignore[arg-type]
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def _count_fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
    return synced


def test_durable_writes_fsync_and_regenerable_outputs_do_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced = _count_fsyncs(monkeypatch)
    write_text_atomic(tmp_path / "a.txt", "a")
    assert len(synced) == 1
    write_text_atomic(tmp_path / "b.txt", "b", durable=False)
    assert len(synced) == 1
    assert (tmp_path / "b.txt").read_text() == "b"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]


def test_convert_syncs_in_place_rewrites_and_backups_but_not_a_mirrored_tree(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cuda2rocm.translate.api import convert

    src = tmp_path / "src"
    src.mkdir()
    for name in ("a.cu", "b.cu"):
        (src / name).write_text("void f(float** p) { cudaMalloc(p, 4); }\n")
    synced = _count_fsyncs(monkeypatch)
    report = convert(src, tmp_path / "out")
    assert len(report.changed) == 2 and synced == []
    assert "hipMalloc" in (tmp_path / "out" / "a.hip").read_text()
    report = convert(src, in_place=True)
    assert len(report.changed) == 2 and len(synced) == 4  # two backups and two rewrites
    assert (src / "a.cu.orig").read_text() == "void f(float** p) { cudaMalloc(p, 4); }\n"
