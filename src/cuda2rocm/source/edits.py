"""Edits: choosing among proposals that may clash, and applying them to a text in one pass.

Two questions, one module, used by every stage (translate, hazard fixes, the toolchain's line mapping):

- :func:`select` is the one overlap policy for edits that may clash (a hazard fix against the translation's
  edits, marker comments against both, the fixes of several hazards): kept edits first, then first in
  position wins; the losers are returned so that the caller can report them.
- :func:`apply_edits` applies edits that must not overlap (selected ones): an overlap there is a bug and
  raises :class:`OverlapError`. Insertions at one point are all applied, in the order given.
- :func:`fix_edits` / :func:`apply_fixes`: the edits of findings' structured fixes (``Fix``) that may be
  applied (safe ones; unsafe ones on request; manual fixes are advice only).
"""

from __future__ import annotations

import bisect
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


class SpanIndex:
    """Spans ``[start, end)`` (of edits, usually) answering "does any of them contain this offset / reach past
    this point" in O(log n): spans sorted by start, with the furthest end among each prefix. The one interval
    lookup for code that asks such questions per finding or per edit (never a scan of every span per query)."""

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        ordered_spans = sorted(spans)
        self.starts = [s for s, _ in ordered_spans]
        self.reach = list(itertools.accumulate((end for _, end in ordered_spans), max))  # furthest end of [:i+1]
        self.points = {s for s, end in ordered_spans if s == end}

    @classmethod
    def of(cls, edits: Iterable[Edit]) -> SpanIndex:
        return cls((e.start, e.end) for e in edits)

    def reaches_past(self, before: int, at: int) -> bool:
        """Whether a span starting before ``before`` ends after ``at``."""
        i = bisect.bisect_left(self.starts, before)
        return i > 0 and self.reach[i - 1] > at

    def __contains__(self, at: int) -> bool:
        """Whether ``at`` lies inside a span (``start <= at < end``)."""
        return self.reaches_past(at + 1, at)


def word_removal(text: str, start: int, end: int, *, openers: str = "\n",
                 continuation: bool = False) -> tuple[int, int]:
    """The span that removes the words ``text[start:end]`` from a command line or option list with their
    separating blanks: the blanks before them, or where only blanks stand between them and the start of the line
    (or one of ``openers``: ``(``, a quote, ``=`` for option lists inside a value) the blanks after them. With
    ``continuation`` (shell text), words that were all a continuation line held take its ``\\`` newline along,
    so the line goes. The one helper every migrator removes a word with."""
    s = start
    while s > 0 and text[s - 1] in " \t":
        s -= 1
    if s < start and s > 0 and text[s - 1] not in openers:
        return s, end
    e = end
    while e < len(text) and text[e] in " \t":
        e += 1
    if continuation and text.startswith("\\\n", e):
        return s, e + 2
    return start, e


def select(edits: Iterable[Edit], kept: Iterable[Edit] = ()) -> tuple[list[Edit], list[Edit]]:
    """(accepted, dropped): the one policy for edits that may clash (see docs/architecture.md).

    ``kept`` edits take precedence and are not checked against each other. The others are taken in position
    order (start, then end; equal spans in their given order): each is accepted unless it overlaps a kept edit
    or one accepted before it, else dropped. Two edits overlap when their spans share a character, or when
    both are insertions at the same point; an insertion at either end of a replacement does not overlap it.
    Sorting and bisection: O((n + m) log m), whatever the number of clashes.
    """
    index = SpanIndex.of(kept)
    accepted: list[Edit] = []
    dropped: list[Edit] = []
    last: Edit | None = None
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        # a kept span starting before this edit's end (its point, for an insertion) and ending after its start
        clash = (index.reaches_past(e.end if e.end > e.start else e.start, e.start)
                 or (e.start == e.end and e.start in index.points))
        if last is not None and not clash:
            clash = e.start < last.end or (e.start == e.end == last.start == last.end)
        if clash:
            dropped.append(e)
        else:
            accepted.append(e)
            last = e
    return accepted, dropped


def fix_edits(fixes: Iterable[Fix | None], *, unsafe: bool = False) -> list[Edit]:
    """The edits of ``fixes`` that may be applied: ``safe`` ones, and ``unsafe`` ones too when ``unsafe``.

    ``manual`` fixes (advice only) and ``None`` contribute nothing."""
    allowed = {Applicability.SAFE, Applicability.UNSAFE} if unsafe else {Applicability.SAFE}
    return [e for f in fixes if f is not None and f.applicability in allowed for e in f.edits]


def apply_fixes(text: str, fixes: Iterable[Fix | None], *, unsafe: bool = False) -> str:
    """``text`` with the edits of ``fixes`` (see :func:`fix_edits`) applied through :func:`apply_edits`;
    raises :class:`OverlapError` when two fixes touch the same text."""
    return apply_edits(text, fix_edits(fixes, unsafe=unsafe))
