"""Terminal summary rendered by rich into a string (plain unless ``color``).

Rich lays out each file's findings table on its own (its column widths are that table's), so the tables of a
large scan are rendered by ``jobs`` worker processes, each with a console like the caller's, and joined in
order: the same text, byte for byte, as one console printing them one after the other (tested).
"""

from __future__ import annotations

import heapq
import io
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from cuda2rocm.model import Finding, Severity
from cuda2rocm.report._data import by_file, severity_counts, where
from cuda2rocm.report._tables import Table, summary_lines, tables
from cuda2rocm.results import ScanResult

_STYLE = {
    Severity.CRITICAL: "bold red",
    Severity.HIGH: "red",
    Severity.MEDIUM: "yellow",
    Severity.LOW: "cyan",
    Severity.INFO: "dim",
}


def _console(color: bool, width: int) -> Console:
    return Console(
        file=io.StringIO(),
        width=width,
        color_system="standard" if color else None,
        force_terminal=color,
        no_color=not color,
        highlight=False,
        emoji=False,
        legacy_windows=False,
    )


#: findings tables (one per file) from which rendering them is worth worker processes (a table takes ~3 ms)
PARALLEL_MIN_TABLES = 256
#: tables per task handed to a worker
_TABLES_PER_TASK = 64


def render_text(result: ScanResult, *, color: bool = False, width: int = 110, jobs: int = 1,
                limit: int | None = None) -> str:
    """``jobs``: worker processes for the findings tables of a large scan (1: none). ``limit``: list at most this
    many findings, the most severe first (then by file and line), after a count of every finding per rule, and
    say how many were left out (None: all; ``scan``'s text output lists 500 unless ``--all``)."""
    console = _console(color, width)
    console.rule(Text("cuda2rocm scan", style="bold"))
    for label, value in summary_lines(result):
        console.print(Text.assemble((f"{label}: ", "bold"), value))
    for table in tables(result):
        console.print(_rich_table(table))
    findings: Sequence[Finding] = result.findings
    if limit is not None and len(findings) > limit:
        console.print(_rich_table(_per_rule(findings)))
        most = heapq.nsmallest(limit, findings, key=lambda f: (-f.severity, f.sort_key()))
        findings = sorted(most, key=Finding.sort_key)
    _print_findings(console, findings, color=color, width=width, jobs=jobs, total=len(result.findings))
    if len(findings) < len(result.findings):
        console.print(Text(f"{len(result.findings) - len(findings)} more findings not listed (the {len(findings)} "
                           "most severe are): --all lists every one, --format json or sarif writes them all"))
    return _value(console)


def _per_rule(findings: Sequence[Finding]) -> Table:
    """Every finding counted per rule, the most severe rules first, with the first place each was found."""
    first: dict[str, Finding] = {}
    count: dict[str, int] = {}
    for f in sorted(findings, key=Finding.sort_key):
        first.setdefault(f.rule, f)
        count[f.rule] = count.get(f.rule, 0) + 1
    order = sorted(first, key=lambda r: (-first[r].severity, -count[r], r))
    rows = [(r, str(first[r].severity), str(count[r]), f"{first[r].path}:{first[r].line}") for r in order]
    return Table("per-rule", "Findings per rule", ("Rule", "Severity", "Count", "First at"), rows)


def render_findings_text(findings: Sequence[Finding], *, color: bool = False, width: int = 110) -> str:
    console = _console(color, width)
    _print_findings(console, findings)
    return _value(console)


def _value(console: Console) -> str:
    assert isinstance(console.file, io.StringIO)
    return console.file.getvalue()


def _rich_table(table: Table) -> RichTable:
    out = RichTable(title=Text(table.title), title_justify="left", show_lines=False, expand=False)
    for header in table.headers:
        out.add_column(Text(header), overflow="fold")
    for row in table.rows:
        out.add_row(*(Text(str(cell)) for cell in row))  # literal text: `[/dev/kfd]` in a value is not markup
    return out


def _print_findings(console: Console, findings: Sequence[Finding], *, color: bool = False, width: int = 110,
                    jobs: int = 1, total: int | None = None) -> None:
    counts = severity_counts(findings)
    summary = ", ".join(f"{n} {sev}" for sev, n in counts.items()) or "none"
    listed = "" if total is None or total == len(findings) else f" listed of {total}"
    console.print(Text.assemble(("Findings: ", "bold"), f"{len(findings)}{listed} ({summary})"))
    groups = list(by_file(findings).items())
    if jobs > 1 and len(groups) >= PARALLEL_MIN_TABLES:
        from cuda2rocm.batch import worker_pool

        tasks = [groups[i:i + _TABLES_PER_TASK] for i in range(0, len(groups), _TABLES_PER_TASK)]
        with worker_pool(jobs) as pool:
            for text in pool.map(_tables_text, tasks, [color] * len(tasks), [width] * len(tasks)):
                console.file.write(text)
        return
    for path, group in groups:
        console.print(_findings_table(path, group))


def _findings_table(path: str, group: Sequence[Finding]) -> RichTable:
    out = RichTable(title=Text(path), title_justify="left", expand=False)
    for header in ("Line", "Severity", "Rule", "Message"):
        out.add_column(header, overflow="fold")
    for f in group:
        message = f"{f.message}\nFix: {f.fix}" if f.fix else f.message
        out.add_row(Text(where(f.line, f.col)), Text(str(f.severity), style=_STYLE[f.severity]), Text(f.rule),
                    Text(message))  # never markup: messages quote code and paths ([/dev/kfd, /dev/dri])
    return out


def _tables_text(groups: Sequence[tuple[str, Sequence[Finding]]], color: bool, width: int) -> str:
    """The findings tables of ``groups`` as a console like the caller's prints them (in a worker)."""
    console = _console(color, width)
    for path, group in groups:
        console.print(_findings_table(path, group))
    return _value(console)
