"""Reading a ``comm`` run's JSONL file back as its value, :class:`cuda2rocm.results.perf.CommRun` (torch-free)."""

from __future__ import annotations

from pathlib import Path

from cuda2rocm.perf import records
from cuda2rocm.results.perf import CommRun


def load(path: Path) -> tuple[CommRun, list[str]]:
    """Read a ``comm`` JSONL file back (the header is the 'comm-run' line, if any)."""
    loaded = records.read_jsonl(path)
    header = next((r for r in loaded.records if r.get("kind") == "comm-run"), {})
    recs = [r for r in loaded.records if r.get("kind") == "comm"]
    return CommRun(header, recs), loaded.problems
