"""Packaged YAML data and their JSON twins: every twin current, equal to its YAML, and never trusted when stale."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cuda2rocm import datafiles

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "src" / "cuda2rocm").glob("*/data/*.yaml"))


def test_there_are_yaml_data_files() -> None:
    # the knowledge base's six tables and regress' tolerances (the GPU table exists once, in knowledge/)
    assert len(SOURCES) >= 7
    assert {p.relative_to(ROOT / "src" / "cuda2rocm").as_posix() for p in SOURCES} >= {
        "knowledge/data/gpus.yaml", "regress/data/tolerances.yaml"}


def test_every_twin_is_current() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_data_json.py"), "--check"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_twin_data_equals_the_yaml(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    package = f"cuda2rocm.{path.parent.parent.name}"
    loaded_text, data = datafiles.load_packaged_yaml(package, f"data/{path.name}")
    assert loaded_text == text
    assert data == datafiles.parse_yaml(text)
    twin = json.loads(path.with_name(path.name + ".json").read_text(encoding="utf-8"))
    assert twin["sha256"] == datafiles.digest(text) and twin["data"] == data


def test_a_stale_twin_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = tmp_path / "fakepkg"
    (pkg / "data").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "data" / "t.yaml").write_text("a: 1\n")
    (pkg / "data" / "t.yaml.json").write_text(datafiles.compile_yaml("a: 1\n"))
    monkeypatch.syspath_prepend(str(tmp_path))
    assert datafiles.load_packaged_yaml("fakepkg", "data/t.yaml")[1] == {"a": 1}
    (pkg / "data" / "t.yaml").write_text("a: 2\n")  # edited after the twin was made
    assert datafiles.load_packaged_yaml("fakepkg", "data/t.yaml")[1] == {"a": 2}
    (pkg / "data" / "t.yaml.json").write_text("{not json")  # a damaged twin
    assert datafiles.load_packaged_yaml("fakepkg", "data/t.yaml")[1] == {"a": 2}
    (pkg / "data" / "t.yaml.json").unlink()
    assert datafiles.load_packaged_yaml("fakepkg", "data/t.yaml")[1] == {"a": 2}
