"""Suppressions: ``// cuda2rocm: ignore[ID]`` or ``# cuda2rocm: ignore[ID1, ID2]`` on the flagged line or the
line above it. ``ignore[*]`` silences every rule there. Input-problem findings (C2R-E) are never silenced."""

from __future__ import annotations

import re

from cuda2rocm.scan.filefacts import FileFacts
from cuda2rocm.source.tokens import split_lines

_MARK = re.compile(r"cuda2rocm:\s*ignore\[([A-Za-z0-9_,\s*-]+)\]")


def suppressions(text: str) -> dict[int, set[str]]:
    """Line -> rule ids silenced on that line (a marker covers its own line and the next one)."""
    out: dict[int, set[str]] = {}
    if "cuda2rocm:" not in text:
        return out
    for i, raw in enumerate(split_lines(text), start=1):  # numbered as findings are (LineIndex)
        m = _MARK.search(raw)
        if m:
            ids = {x.strip().upper() for x in m.group(1).split(",") if x.strip()}
            for line in (i, i + 1):
                out.setdefault(line, set()).update(ids)
    return out


def apply(report: FileFacts, text: str) -> None:
    marks = suppressions(text)
    if not marks:
        return
    kept = []
    for f in report.findings:
        ids = marks.get(f.line, set())
        if f.rule.startswith("C2R-E") or not (f.rule in ids or "*" in ids):
            kept.append(f)
        else:
            report.count("suppressed")
    report.findings = kept
