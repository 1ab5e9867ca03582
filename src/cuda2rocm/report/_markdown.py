"""Markdown report (GitHub-flavoured tables)."""

from __future__ import annotations

from collections.abc import Sequence

from cuda2rocm.model import Finding
from cuda2rocm.report._data import by_file, rule_url, severity_counts, where
from cuda2rocm.report._tables import Table, summary_lines, tables
from cuda2rocm.results import ScanResult


def cell(text: str) -> str:
    """One table cell: pipes and angle brackets escaped, newlines turned into <br>."""
    escaped = text.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")
    return escaped.replace("\r", "").replace("\n", "<br>") or " "


def table_lines(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(cell(h) for h in headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return lines


def render_markdown(result: ScanResult) -> str:
    lines = ["# cuda2rocm scan report", ""]
    lines += [f"- **{label}:** {value}" for label, value in summary_lines(result)]
    for table in tables(result):
        lines += ["", *_section(table)]
    lines += ["", *_findings(result.findings)]
    return "\n".join(lines) + "\n"


def render_findings_markdown(findings: Sequence[Finding]) -> str:
    return "\n".join(_findings(findings)) + "\n"


def _section(table: Table) -> list[str]:
    return [f"## {table.title}", "", *table_lines(table.headers, table.rows)]


def _findings(findings: Sequence[Finding]) -> list[str]:
    counts = ", ".join(f"{n} {sev}" for sev, n in severity_counts(findings).items()) or "none"
    lines = ["## Findings", "", f"{len(findings)} findings ({counts})."]
    for path, group in by_file(findings).items():
        rows = [
            (where(f.line, f.col), str(f.severity), f"[{f.rule}]({rule_url(f.rule)})", f.message, f.fix) for f in group
        ]
        lines += ["", f"### `{path}`", "", *table_lines(("Line", "Severity", "Rule", "Message", "Fix"), rows)]
    return lines


def _row(f: Finding) -> tuple[str, ...]:
    return (where(f.line, f.col), str(f.severity), f"[{f.rule}]({rule_url(f.rule)})", f.message, f.fix)
