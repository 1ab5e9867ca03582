"""Map a line of translated text back to the original line, through the edits that produced it."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from cuda2rocm.model import Edit


def original_offset(edits: Sequence[Edit], translated_offset: int) -> int:
    """Offset in the original text of ``translated_offset`` (inside a replacement: the edit's start)."""
    shift = 0
    for e in edits:  # sorted by position, as Translated.edits are
        start = e.start + shift
        if translated_offset < start:
            break
        if translated_offset < start + len(e.replacement):
            return e.start
        shift += len(e.replacement) - (e.end - e.start)
    return translated_offset - shift


def _line_starts(text: str) -> list[int]:
    starts = [0]
    starts.extend(i + 1 for i, ch in enumerate(text) if ch == "\n")
    return starts


def original_line(edits: Sequence[Edit], original: str, translated: str, line: int) -> int:
    """1-based original line for 1-based ``line`` of ``translated`` (0 if out of range)."""
    starts = _line_starts(translated)
    if line < 1 or line > len(starts):
        return 0
    offset = original_offset(edits, starts[line - 1])
    # an inserted line (e.g. the hip_runtime include) maps to the line it was inserted before
    return bisect.bisect_right(_line_starts(original), min(offset, len(original)))
