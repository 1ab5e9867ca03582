"""Applying edits (see ``cuda2rocm.source.edits``) and keeping extra edits clear of the translation's own."""

from __future__ import annotations

from collections.abc import Iterable

from cuda2rocm.model import Edit
from cuda2rocm.source.edits import OverlapError, ordered
from cuda2rocm.source.edits import apply_edits as apply

__all__ = ["OverlapError", "apply", "drop_overlapping", "ordered"]


def drop_overlapping(kept: list[Edit], extra: Iterable[Edit]) -> tuple[list[Edit], list[Edit]]:
    """Split ``extra`` into edits that do not overlap ``kept`` and those that do."""
    spans = sorted((e.start, e.end) for e in kept)
    ok: list[Edit] = []
    clash: list[Edit] = []
    for e in extra:
        hit = any((s < e.end and e.start < end) or (s == end == e.start == e.end) for s, end in spans)
        (clash if hit else ok).append(e)
    return ok, clash
