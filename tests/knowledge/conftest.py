from __future__ import annotations

from pathlib import Path

import pytest

from cuda2rocm import knowledge

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference"


@pytest.fixture(autouse=True)
def isolated_kb(tmp_path, monkeypatch):
    """Never read the developer's own overlay; every test starts from the shipped tables."""
    monkeypatch.setenv("CUDA2ROCM_KB_DIR", str(tmp_path / "kb"))
    knowledge.use_kb_dir(None)
    yield tmp_path / "kb"
    knowledge.use_kb_dir(None)


@pytest.fixture(scope="session")
def reference():
    if not REFERENCE.is_dir():
        pytest.skip(f"reference facts not found at {REFERENCE}")
    from ruamel.yaml import YAML

    def load(name: str):
        return YAML(typ="safe").load((REFERENCE / f"{name}.yaml").read_text(encoding="utf-8"))

    return load
