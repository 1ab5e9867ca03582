"""Map a line of translated text back to the original line, through the edits that produced it.

Edits carry character offsets into the original text (``Edit``), as every producer (translate passes,
hazard fixes) computes them from the token stream.
"""

from __future__ import annotations

from collections.abc import Iterable

from cuda2rocm.model import Edit
from cuda2rocm.source.edits import apply_edits

__all__ = ["apply_edits", "map_line", "map_offset"]


def map_offset(edits: Iterable[Edit], translated_offset: int) -> int:
    """Original offset for an offset in the translated text.

    Edits are non-overlapping. A position inside a replacement maps into the replaced span (clamped to its
    last character), or to the edit's start for an insertion."""
    delta = 0  # translated offset - original offset, for text after the edits seen so far
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        new_start = edit.start + delta
        if translated_offset < new_start:
            break
        new_len = len(edit.replacement)
        if translated_offset < new_start + new_len:
            inside = translated_offset - new_start
            return edit.start + min(inside, max(edit.end - edit.start - 1, 0))
        delta += new_len - (edit.end - edit.start)
    return translated_offset - delta


def _line_start(text: str, line: int) -> int:
    """Offset of 1-based ``line`` (past the end for a line beyond the text)."""
    offset = 0
    for _ in range(line - 1):
        found = text.find("\n", offset)
        if found < 0:
            return len(text)
        offset = found + 1
    return offset


def map_line(edits: Iterable[Edit], original_text: str, translated_text: str, translated_line: int) -> int:
    """1-based line of ``original_text`` that produced ``translated_line`` of ``translated_text`` (0 if < 1).

    Lines that an edit inserted map to the line where that edit starts. Pure: no I/O."""
    if translated_line < 1:
        return 0
    start = _line_start(translated_text, translated_line)
    offset = min(map_offset(edits, start), len(original_text))
    return original_text.count("\n", 0, offset) + 1
