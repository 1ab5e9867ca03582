"""Per-metric thresholds: ``tokens_per_s >= 0.9x``, ``p99_ms <= 1.1x``, ``'*busbw*' >= 0.95x``, ``p99_ms <= 250``.

A value with ``x`` is relative to the baseline's median; without, it is an absolute bound on the
candidate's median. Metric names may be shell-style patterns; the first matching threshold wins.

Metric names are ``/``-separated paths (``comm/all_reduce/float32/in/events/1048576/busbw_gbps``). A pattern
matches a metric when it matches the whole name or one of its trailing parts: ``busbw_gbps`` and
``1048576/busbw_gbps`` both match the name above, ``busbw`` does not (``*busbw*`` does). A threshold that
matches no metric at all is an error (:func:`check_matched`): a gate that gates nothing must not pass.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Collection, Sequence
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
        """The whole name, or a trailing run of its ``/``-separated parts, matches the pattern."""
        parts = metric.split("/")
        return any(fnmatch.fnmatchcase("/".join(parts[i:]), self.pattern) for i in range(len(parts)))

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


class UnmatchedThreshold(ValueError):
    """One or more thresholds match none of the compared metrics."""


def check_matched(thresholds: Sequence[Threshold], metrics: Collection[str]) -> None:
    """Raise :class:`UnmatchedThreshold` naming every threshold that matches none of ``metrics``."""
    unmatched = [t for t in thresholds if not any(t.matches(m) for m in metrics)]
    if not unmatched:
        return
    names = sorted(metrics)
    shown = ", ".join(names[:3]) + (f" (and {len(names) - 3} more)" if len(names) > 3 else "")
    raise UnmatchedThreshold(
        "threshold " + ", ".join(f"'{t}'" for t in unmatched)
        + f" matches no metric; a pattern matches the whole name or its trailing '/'-separated parts, "
        f"and the metrics are: {shown or 'none'}")


def find(thresholds: Sequence[Threshold], metric: str) -> Threshold | None:
    return next((t for t in thresholds if t.matches(metric)), None)
