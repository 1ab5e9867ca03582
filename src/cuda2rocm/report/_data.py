"""Turn result dataclasses into plain JSON data: enums become strings, tuples become lists."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from typing import Any

from cuda2rocm.model import OMIT_NONE, Finding


def to_data(value: Any) -> Any:
    """Plain ``dict``/``list``/``str``/number form of any result value, in field order (fields marked
    ``OMIT_NONE`` left out while None)."""
    if isinstance(value, enum.Enum):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_data(getattr(value, f.name)) for f in dataclasses.fields(value)
                if not (f.metadata.get(OMIT_NONE) and getattr(value, f.name) is None)}
    if isinstance(value, dict):
        return {str(k): to_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_data(v) for v in value]
    return value


def code_spans(text: str) -> list[tuple[bool, str]]:
    """``text`` split into (is_code, part) pieces by CommonMark's backtick rule: a run of N backticks opens a
    code span that the next run of exactly N closes (one space of padding on both sides is dropped); a run
    without its closing run is plain text. Messages and fixes quote code this way (``use `warpSize` ``)."""
    out: list[tuple[bool, str]] = []
    plain_start = pos = 0
    n = len(text)
    while pos < n:
        if text[pos] != "`":
            pos += 1
            continue
        run_end = pos
        while run_end < n and text[run_end] == "`":
            run_end += 1
        fence = run_end - pos
        close = _closing_run(text, run_end, fence)
        if close < 0:
            pos = run_end
            continue
        if pos > plain_start:
            out.append((False, text[plain_start:pos]))
        body = text[run_end:close]
        if body[:1] == body[-1:] == " " and body.strip():
            body = body[1:-1]
        out.append((True, body))
        plain_start = pos = close + fence
    if plain_start < n:
        out.append((False, text[plain_start:]))
    return out


def _closing_run(text: str, start: int, fence: int) -> int:
    """Offset of the next run of exactly ``fence`` backticks at or after ``start``, -1 when there is none."""
    pos = text.find("`", start)
    while pos >= 0:
        end = pos
        while end < len(text) and text[end] == "`":
            end += 1
        if end - pos == fence:
            return pos
        pos = text.find("`", end)
    return -1


def location(path: str, line: int, col: int = 0) -> str:
    """``path:line:col``, dropping the parts that are 0 ("whole file", "whole line")."""
    if line <= 0:
        return path
    return f"{path}:{line}:{col}" if col > 0 else f"{path}:{line}"


def where(line: int, col: int = 0) -> str:
    """``line:col`` within a file, ``-`` for a whole-file finding."""
    if line <= 0:
        return "-"
    return f"{line}:{col}" if col > 0 else str(line)


#: where docs/rules.md is published; each rule has an explicit ``<a id="ID">`` anchor there
RULES_DOC_URL = "https://github.com/cuda2rocm/cuda2rocm/blob/main/docs/rules.md"


def rule_url(rule_id: str) -> str:
    return f"{RULES_DOC_URL}#{rule_id}"


def by_file(findings: Sequence[Finding]) -> dict[str, list[Finding]]:
    """Findings grouped by path (paths sorted), each group in line order."""
    groups: dict[str, list[Finding]] = {}
    for f in sorted(findings, key=Finding.sort_key):
        groups.setdefault(f.path, []).append(f)
    return groups


def severity_counts(findings: Sequence[Finding]) -> dict[str, int]:
    """``{"critical": n, "high": n, ...}`` in descending severity, zero counts left out."""
    counts: dict[str, int] = {}
    for f in sorted(findings, key=lambda f: -f.severity):
        counts[str(f.severity)] = counts.get(str(f.severity), 0) + 1
    return counts
