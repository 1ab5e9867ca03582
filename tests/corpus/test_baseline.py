"""The committed CUDA baseline covers the corpus programs, and every program passed its own check there.

A program added after the last GPU run has no baseline yet: its test skips, naming the command that records it
(scripts/gpu/corpus.sh NAME on an NVIDIA GPU, then its stdout into baseline-h200/). Programs that had one keep it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

CORPUS = Path(__file__).parent / "cuda"
BASELINE = Path(__file__).parent / "baseline-h200"
PROGRAMS = sorted({p.stem for p in CORPUS.glob("*.cu")} | {p.name for p in CORPUS.iterdir() if p.is_dir()})
RECORDED = sorted(p.name[: -len(".stdout")] for p in BASELINE.glob("*.stdout"))


def test_corpus_has_programs() -> None:
    assert len(PROGRAMS) >= 40


def test_baseline_covers_the_programs_of_the_last_gpu_run() -> None:
    assert len(RECORDED) >= 46  # the 2026-11-30 H200 run: a baseline once recorded is never dropped
    assert set(RECORDED) <= set(PROGRAMS), sorted(set(RECORDED) - set(PROGRAMS))  # none for a removed program


@pytest.mark.parametrize("program", PROGRAMS)
def test_baseline_recorded_and_passed(program: str) -> None:
    out = BASELINE / f"{program}.stdout"
    if not out.is_file():
        pytest.skip(f"no CUDA baseline for {program} yet: run scripts/gpu/corpus.sh {program} on a GPU and add "
                    f"its stdout as tests/corpus/baseline-h200/{program}.stdout")
    assert f"{program}: PASSED" in out.read_text(encoding="utf-8")
