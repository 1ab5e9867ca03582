"""The packaged tables are exactly what tools/gen_mapping.py makes: nobody edited generated data by hand."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "cuda2rocm" / "mapping" / "data"
VENDORED = Path(__file__).parent / "data" / "hipify-map.csv.gz"


def _generator():
    spec = importlib.util.spec_from_file_location("gen_mapping", ROOT / "tools" / "gen_mapping.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("mapping")
    assert _generator().main([str(VENDORED), "--out", str(out)]) == 0
    return out


def test_generation_reproduces_every_packaged_table(generated):
    made = sorted(p.name for p in generated.glob("*.csv"))
    assert len(made) >= 22
    for name in made:
        assert (generated / name).read_bytes() == (DATA / name).read_bytes(), name


def test_hand_written_tables_are_not_generated(generated):
    hand = {"headers.csv", "rocm_releases.csv", "prefixes.csv"}
    assert hand <= {p.name for p in DATA.glob("*.csv")}
    assert not hand & {p.name for p in generated.glob("*.csv")}


def test_every_table_names_its_source_and_date():
    for path in DATA.glob("*.csv"):
        head = path.read_text(encoding="utf-8").split("\n", 3)
        comment = " ".join(line for line in head if line.startswith("#"))
        assert "2026-11-30" in comment or "2024-10-24" in comment, path.name
        assert any(word in comment for word in ("Source", "source", "from", "Checked")), path.name
