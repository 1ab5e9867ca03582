"""The committed CUDA baseline covers every corpus program, and every program passed its own check there."""

from __future__ import annotations

from pathlib import Path

import pytest

CORPUS = Path(__file__).parent / "cuda"
BASELINE = Path(__file__).parent / "baseline-h200"
PROGRAMS = sorted({p.stem for p in CORPUS.glob("*.cu")} | {p.name for p in CORPUS.iterdir() if p.is_dir()})


def test_corpus_has_programs() -> None:
    assert len(PROGRAMS) >= 40


@pytest.mark.parametrize("program", PROGRAMS)
def test_baseline_recorded_and_passed(program: str) -> None:
    out = BASELINE / f"{program}.stdout"
    assert out.is_file(), f"no CUDA baseline for {program}: rerun scripts/gpu/run_all.sh corpus on a GPU"
    assert "PASSED" in out.read_text(encoding="utf-8")
