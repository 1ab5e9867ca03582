"""Applying edits to a text: sorted, checked for overlap, spliced in one pass (same result as back to front).

The one implementation every stage uses (translate, hazard fixes, findings' structured fixes, the toolchain's
line mapping tests).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from cuda2rocm.model import Applicability, Edit, Fix


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


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """``text`` with ``edits`` applied; raises :class:`OverlapError` if two edits overlap."""
    parts: list[str] = []
    pos = 0
    for e in ordered(edits):
        parts.append(text[pos : e.start])
        parts.append(e.replacement)
        pos = e.end
    parts.append(text[pos:])
    return "".join(parts)


def fix_edits(fixes: Iterable[Fix | None], *, unsafe: bool = False) -> list[Edit]:
    """The edits of ``fixes`` that may be applied: ``safe`` ones, and ``unsafe`` ones too when ``unsafe``.

    ``manual`` fixes (advice only) and ``None`` contribute nothing."""
    allowed = {Applicability.SAFE, Applicability.UNSAFE} if unsafe else {Applicability.SAFE}
    return [e for f in fixes if f is not None and f.applicability in allowed for e in f.edits]


def apply_fixes(text: str, fixes: Iterable[Fix | None], *, unsafe: bool = False) -> str:
    """``text`` with the edits of ``fixes`` (see :func:`fix_edits`) applied through :func:`apply_edits`;
    raises :class:`OverlapError` when two fixes touch the same text."""
    return apply_edits(text, fix_edits(fixes, unsafe=unsafe))
