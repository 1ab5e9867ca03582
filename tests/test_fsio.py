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
