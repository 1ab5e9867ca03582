"""Markdown report (GitHub-flavoured tables)."""

from __future__ import annotations

from collections.abc import Sequence

from cuda2rocm.model import Finding
from cuda2rocm.report._data import by_file, code_spans, rule_url, severity_counts, where
from cuda2rocm.report._tables import Table, summary_lines, tables
from cuda2rocm.results import ScanResult


class Md(str):
    """Text that is Markdown already (a link this module built): :func:`cell` passes it through."""


_PLAIN_ESCAPES = str.maketrans({"\\": "\\\\", "|": "\\|", "<": "&lt;", ">": "&gt;", "`": "\\`", "[": "\\[",
                                "]": "\\]", "*": "\\*", "\r": ""})


def inline(text: str) -> str:
    """Plain text (with ``code`` spans) as inline Markdown that is safe in a table cell: outside code spans
    Markdown punctuation and ``|`` are backslash-escaped and ``<``/``>`` become entities (no raw HTML passes);
    code spans keep their text literally (no entities: GitHub shows ``&lt;`` there as typed), fenced by
    :func:`code`, with only ``|`` escaped (a GFM table splits cells on it even inside code)."""
    parts = []
    for is_code, part in code_spans(text):
        parts.append(code(part, table=True) if is_code else part.translate(_PLAIN_ESCAPES))
    return "".join(parts)


def code(text: str, *, table: bool = False) -> str:
    """``text`` as one code span: the fence is one backtick longer than the longest run inside, padded with
    a space where the text starts or ends with a backtick; newlines become spaces (``table``: ``|`` escaped)."""
    body = text.replace("\r", "").replace("\n", " ")
    if table:
        body = body.replace("|", "\\|")
    longest = max((len(run) for run in _backtick_runs(body)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if body[:1] == "`" or body[-1:] == "`" or (body[:1] == body[-1:] == " " and body.strip()) else ""
    return f"{fence}{pad}{body}{pad}{fence}"


def _backtick_runs(text: str) -> list[str]:
    runs, run = [], ""
    for ch in text:
        if ch == "`":
            run += ch
        elif run:
            runs.append(run)
            run = ""
    return [*runs, run] if run else runs


def cell(text: str) -> str:
    """One table cell: :func:`inline` text (Markdown built here, :class:`Md`, as it is), newlines as <br>."""
    if isinstance(text, Md):
        return str(text) or " "
    lines = text.replace("\r", "").split("\n")
    return "<br>".join(inline(line) for line in lines) or " "


def table_lines(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(cell(h) for h in headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return lines


def render_markdown(result: ScanResult) -> str:
    lines = ["# cuda2rocm scan report", ""]
    lines += [f"- **{inline(label)}:** {inline(value)}" for label, value in summary_lines(result)]
    for table in tables(result):
        lines += ["", *_section(table)]
    lines += ["", *_findings(result.findings)]
    return "\n".join(lines) + "\n"


def render_findings_markdown(findings: Sequence[Finding]) -> str:
    return "\n".join(_findings(findings)) + "\n"


def _section(table: Table) -> list[str]:
    return [f"## {inline(table.title)}", "", *table_lines(table.headers, table.rows)]


def _findings(findings: Sequence[Finding]) -> list[str]:
    counts = ", ".join(f"{n} {sev}" for sev, n in severity_counts(findings).items()) or "none"
    lines = ["## Findings", "", f"{len(findings)} findings ({counts})."]
    for path, group in by_file(findings).items():
        rows = [(where(f.line, f.col), str(f.severity), _rule_link(f.rule), f.message, f.fix) for f in group]
        lines += ["", f"### {code(path)}", "", *table_lines(("Line", "Severity", "Rule", "Message", "Fix"), rows)]
    return lines


def _rule_link(rule: str) -> Md:
    return Md(f"[{inline(rule)}]({rule_url(rule)})")
