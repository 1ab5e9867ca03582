"""Apply edits to a text: sorted, checked for overlap, spliced in one pass (same result as back to front)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from cuda2rocm.model import Edit


class OverlapError(ValueError):
    def __init__(self, first: Edit, second: Edit) -> None:
        super().__init__(f"edits overlap: {first} and {second}")
        self.first = first
        self.second = second


def ordered(edits: Iterable[Edit]) -> list[Edit]:
    """Edits by position (insertions at a point keep their order, before a replacement starting there)."""
    indexed = sorted(enumerate(edits), key=lambda p: (p[1].start, p[1].end > p[1].start, p[0]))
    out = [e for _, e in indexed]
    for a, b in itertools.pairwise(out):
        if b.start < a.end:
            raise OverlapError(a, b)
    return out


def apply(text: str, edits: Iterable[Edit]) -> str:
    parts: list[str] = []
    pos = 0
    for e in ordered(edits):
        parts.append(text[pos:e.start])
        parts.append(e.replacement)
        pos = e.end
    parts.append(text[pos:])
    return "".join(parts)


def drop_overlapping(kept: list[Edit], extra: Iterable[Edit]) -> tuple[list[Edit], list[Edit]]:
    """Split ``extra`` into edits that do not overlap ``kept`` and those that do."""
    spans = sorted((e.start, e.end) for e in kept)
    ok: list[Edit] = []
    clash: list[Edit] = []
    for e in extra:
        hit = any((s < e.end and e.start < end) or (s == end == e.start == e.end) for s, end in spans)
        (clash if hit else ok).append(e)
    return ok, clash
