"""The value a ``comm`` run returns (torch-free, so records can be read back where torch is not installed)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cuda2rocm.perf import records


@dataclass(frozen=True)
class CommRun:
    header: dict[str, Any]  # the 'comm-run' line: backend, world size, topology, link peak, env fingerprint
    records: list[dict[str, Any]] = field(default_factory=list)  # one 'comm' record per op, dtype, size

    @property
    def warnings(self) -> list[str]:
        return list(self.header.get("warnings", []))


def load(path: Path) -> tuple[CommRun, list[str]]:
    """Read a ``comm`` JSONL file back (the header is the 'comm-run' line, if any)."""
    loaded = records.read_jsonl(path)
    header = next((r for r in loaded.records if r.get("kind") == "comm-run"), {})
    recs = [r for r in loaded.records if r.get("kind") == "comm"]
    return CommRun(header, recs), loaded.problems
