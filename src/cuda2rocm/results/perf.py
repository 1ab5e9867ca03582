"""The values of ``bench compare`` / ``comm --compare`` (:class:`Report`) and of a ``comm`` run (:class:`CommRun`).

``perf/`` (numpy, torch) makes them; the envelope and the reports read them without either. The statistics are
computed in ``perf/stats.py``, the verdicts in ``perf/compare.py``, a ``comm`` JSONL file is read back by
``perf/commrun.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Summary:
    """One metric's samples summarised (``perf.stats.summarize``)."""

    n: int
    median: float
    mean: float
    stdev: float
    iqr: float
    min: float
    max: float

    @property
    def cv(self) -> float:
        """Coefficient of variation (stdev / mean); the spread as a fraction."""
        return self.stdev / abs(self.mean) if self.mean else 0.0


@dataclass(frozen=True)
class MetricResult:
    name: str
    direction: str
    base: Summary
    cand: Summary
    ratio: float  # median(cand) / median(base)
    ci: tuple[float, float]
    p_value: float
    threshold: str
    verdict: str
    note: str = ""


@dataclass(frozen=True)
class Report:
    results: tuple[MetricResult, ...]
    env_differences: tuple[str, ...] = ()
    costs: dict[str, Any] = field(default_factory=dict)

    @property
    def exit_code(self) -> int:
        return 1 if any(r.verdict in ("fail", "regression") for r in self.results) else 0

    def failures(self) -> list[str]:
        """One line per metric that fails the comparison (threshold or significant regression)."""
        out = []
        for r in self.results:
            if r.verdict not in ("fail", "regression"):
                continue
            why = f"threshold {r.threshold}" if r.threshold else f"significant regression, p={r.p_value:.3g}"
            ratio = "missing on one side" if math.isnan(r.ratio) else f"ratio {r.ratio:.3f}"
            out.append(f"{r.name}: {r.verdict}, {ratio} ({why})" + (f"; {r.note}" if r.note else ""))
        return out

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for r in self.results:
            out[r.verdict] = out.get(r.verdict, 0) + 1
        return out


@dataclass(frozen=True)
class CommRun:
    """A ``comm`` run: the header line and its records (torch-free, so records can be read back anywhere)."""

    header: dict[str, Any]  # the 'comm-run' line: backend, world size, topology, link peak, env fingerprint
    records: list[dict[str, Any]] = field(default_factory=list)  # one 'comm' record per op, dtype, size

    @property
    def warnings(self) -> list[str]:
        return list(self.header.get("warnings", []))
