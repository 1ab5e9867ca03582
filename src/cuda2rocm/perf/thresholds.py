"""Per-metric thresholds: ``tokens_per_s >= 0.9x``, ``p99_ms <= 1.1x``, ``'*busbw*' >= 0.95x``, ``p99_ms <= 250``.

A value with ``x`` is relative to the baseline's median; without, it is an absolute bound on the
candidate's median. Metric names may be shell-style patterns; the first matching threshold wins.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Sequence
from dataclasses import dataclass

_THRESHOLD = re.compile(r"^\s*(?P<name>[^<>=\s]+)\s*(?P<op><=|>=|<|>)\s*(?P<value>[0-9.eE+-]+)\s*(?P<x>x?)\s*$")


@dataclass(frozen=True)
class Threshold:
    pattern: str
    op: str  # <=, >=, <, >
    value: float
    relative: bool

    def __str__(self) -> str:
        return f"{self.pattern} {self.op} {self.value:g}{'x' if self.relative else ''}"

    def matches(self, metric: str) -> bool:
        return fnmatch.fnmatchcase(metric, self.pattern)

    def holds(self, base_median: float, cand_median: float) -> bool:
        """Is the candidate within bounds? (relative: compares cand/base with the value)"""
        if self.relative:
            if base_median == 0:
                return False
            observed = cand_median / base_median
        else:
            observed = cand_median
        return {"<=": observed <= self.value, ">=": observed >= self.value,
                "<": observed < self.value, ">": observed > self.value}[self.op]


def parse(text: str) -> Threshold:
    m = _THRESHOLD.match(text)
    if not m:
        raise ValueError(f"not a threshold: {text!r} (examples: 'tokens_per_s>=0.9x', 'p99_ms<=1.1x')")
    try:
        value = float(m.group("value"))
    except ValueError:
        raise ValueError(f"not a number in threshold {text!r}") from None
    return Threshold(m.group("name"), m.group("op"), value, bool(m.group("x")))


def parse_all(texts: Sequence[str]) -> list[Threshold]:
    return [parse(t) for t in texts]


def find(thresholds: Sequence[Threshold], metric: str) -> Threshold | None:
    return next((t for t in thresholds if t.matches(metric)), None)
