"""``comm``: the run header (backend, world size, link peak, warnings) and nccl-tests' table per size.

One table per (op, dtype), titled with them, so the columns that remain fit 80 columns and nothing is cut.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table

from cuda2rocm.perf import comm_table
from cuda2rocm.report._console import line
from cuda2rocm.results.perf import CommRun


def render_rich(run: CommRun) -> Group:
    header, recs = run.header, run.records
    items: list[RenderableType] = [
        line(f"[bold]backend[/]: {header.get('backend', '?')}   world size: {header.get('world_size', '?')}")]
    peak = header.get("link_peak")
    items.append(line(f"link peak: {peak['label']} {peak['gbps']:.0f} GB/s per direction" if peak else
                      "link peak: unknown (no NVLink/XGMI topology found)"))
    items += [line(f"[yellow]warning[/]: {warning}") for warning in header.get("warnings", [])]
    groups: dict[tuple[str, str], list[tuple[str, ...]]] = {}
    errors: dict[tuple[str, str], list[str]] = {}
    for rec in recs:
        row = comm_table.row(rec)
        if rec.get("error"):  # the message goes under the table, whole
            errors.setdefault((row[0], row[1]), []).append(f"[red]error[/] {row[2]} {row[3]}: {escape(row[-1])}")
            row = (*row[:-1], "see below")
        groups.setdefault((row[0], row[1]), []).append(row[2:])
    for (op, dtype), rows in groups.items():
        table = Table(title=f"{op} {dtype}", title_justify="left")
        for column in comm_table.COLUMNS[2:]:
            table.add_column(column, overflow="fold")
        for row in rows:
            table.add_row(*row)
        items.append(table)
        items += [line(message, highlight=False) for message in errors.get((op, dtype), [])]
    if not recs:
        items.append(Table(*comm_table.COLUMNS))
    if any(comm_table.fell_back(r) for r in recs):
        items.append(line("* timing fell back: " + next(r["timing_note"] for r in recs if comm_table.fell_back(r))))
    return Group(*items)
