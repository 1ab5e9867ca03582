"""Values shared by the format readers: a piece of text at an offset and a reading problem."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple


class Piece(NamedTuple):
    """``src`` as it is written, at ``offset`` in the text (``end`` exclusive)."""

    kind: str
    src: str
    offset: int

    @property
    def end(self) -> int:
        return self.offset + len(self.src)


class Problem(NamedTuple):
    """Malformed input: 1-based ``line`` (0: the whole file) and a message; ``offset`` where it starts."""

    line: int
    message: str
    offset: int = 0


def joined(pieces: Iterable[Piece]) -> str:
    """The text of ``pieces`` put back together (the inverse of a token reader)."""
    return "".join(p.src for p in pieces)


def cover(text: str, pieces: Iterable[Piece], start: int = 0, end: int | None = None,
          gap: str = "space") -> list[Piece]:
    """``pieces`` (sorted, not overlapping, inside ``text[start:end]``) with the text between them as ``gap``
    pieces, so that the result concatenates to ``text[start:end]``."""
    stop = len(text) if end is None else end
    out: list[Piece] = []
    pos = start
    for p in pieces:
        if p.offset > pos:
            out.append(Piece(gap, text[pos : p.offset], pos))
        out.append(p)
        pos = p.end
    if pos < stop:
        out.append(Piece(gap, text[pos:stop], pos))
    return out


def physical_lines(text: str) -> list[tuple[int, int, int]]:
    """(start, end of content, end including the newline) of every line of ``text``."""
    out: list[tuple[int, int, int]] = []
    pos, n = 0, len(text)
    while pos < n:
        nl = text.find("\n", pos)
        if nl < 0:
            out.append((pos, n, n))
            break
        content = nl - 1 if nl > pos and text[nl - 1] == "\r" else nl
        out.append((pos, content, nl + 1))
        pos = nl + 1
    return out


def continued(text: str, start: int, end: int, escape: str = "\\") -> bool:
    """Whether ``text[start:end]`` ends in an odd number of ``escape`` characters (a line continuation)."""
    n = 0
    while end - n > start and text[end - n - 1] == escape:
        n += 1
    return n % 2 == 1
