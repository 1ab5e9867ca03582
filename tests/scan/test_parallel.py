"""A parallel scan gives the report a serial one gives, byte for byte: JSON, SARIF and the text report (whose
findings tables are rendered by worker processes for a large scan).

The trees here are small, so the chunking and the rendering thresholds are lowered to make the parallel paths
run with many chunks and many tasks (the same code as for a million-line tree).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cuda2rocm.report import _text, render
from cuda2rocm.scan import api
from cuda2rocm.scan.api import scan

ROOT = Path(__file__).resolve().parents[2]
TREES = ("tests/scan/fixtures", "examples", "tests/hazards/corpus")


class _Clock:
    """A clock that never moves: a scan's ``seconds`` and ``lines_per_second`` come out 0, so two runs of
    different speed render to the same bytes."""

    @staticmethod
    def perf_counter() -> float:
        return 0.0


@pytest.fixture()
def many_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api, "time", _Clock)
    monkeypatch.setattr(api, "_CHUNK_FILES", 3)
    monkeypatch.setattr(api, "_CHUNK_BYTES", 4096)
    monkeypatch.setattr(api, "_MIN_CHUNK_BYTES", 512)
    monkeypatch.setattr(_text, "PARALLEL_MIN_TABLES", 2)
    monkeypatch.setattr(_text, "_TABLES_PER_TASK", 2)


@pytest.mark.parametrize("tree", TREES)
def test_jobs_1_and_2_and_3_render_the_same_bytes(tree: str, many_chunks: None) -> None:
    one = scan(ROOT / tree, jobs=1)
    assert one.findings and one.stats["seconds"] == 0
    for jobs in (2, 3):
        other = scan(ROOT / tree, jobs=jobs)
        for fmt in ("json", "sarif"):
            assert render(other, fmt) == render(one, fmt), (tree, jobs, fmt)
        for color in (False, True):
            assert render(other, "text", color=color, jobs=jobs) == render(one, "text", color=color), (tree, jobs)


def test_chunks_cover_the_candidates_in_order_and_shrink_at_the_end() -> None:
    from cuda2rocm.files.walk import Candidate

    cands = [Candidate(f"/x/f{i}.cu", f"f{i}.cu", "cuda", 100_000) for i in range(400)]
    chunks = api._chunks(cands, 2)
    assert [c for chunk in chunks for c in chunk] == cands  # every file once, in order
    sizes = [sum(c.size for c in chunk) for chunk in chunks]
    assert max(sizes) <= api._CHUNK_BYTES + 100_000
    assert sizes[-1] < sizes[0] and sizes[-2] <= sizes[len(sizes) // 2]  # the tail is cut finer
    assert api._chunks(cands, 1)[0] == chunks[0]  # the head is as large as before
