"""``bench compare`` (and ``comm --compare``): the metric-by-metric tables of a :class:`~cuda2rocm.results.perf.Report`.

Metrics are grouped by their leading name segments (``report._names``): one table per group, titled with the
shared part of the names, each row labelled with the part that differs, so the distinguishing part is never cut at
80 columns or in a pipe. The direction and threshold move into the title where a whole group shares them, and a
threshold naming its row's own metric shows only its condition. Where the full table does not fit the console,
the notes are abbreviated (explained under the table), then labels break after a ``/``; where even that does not
fit, each metric becomes a short block of words that wrap. Nothing is cut or ellipsized.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from cuda2rocm.report._console import line
from cuda2rocm.report._names import NameGroup, group_names
from cuda2rocm.results.perf import MetricResult, Report

_COLORS = {"fail": "red", "regression": "red", "improvement": "green", "ok": "", "missing": "yellow"}
_HEADERS = ("base median", "cand median", "ratio", "95% CI", "p", "spread b/c")
_ARROWS = {"higher": "↑", "lower": "↓"}

#: how a narrow table abbreviates the comparison's notes (explained under the table)
SHORT_NOTES = {
    "difference not significant": "n.s.",
    "too few samples for a significance test": "few samples",
    "only in baseline": "base only",
    "only in candidate": "cand only",
}


def fmt_number(value: Any, spec: str = ".4g") -> str:
    """``value`` formatted, ``-`` for a missing or NaN value."""
    return "-" if value is None or (isinstance(value, float) and math.isnan(value)) else format(value, spec)


def render_rich(report: Report) -> Group:
    items: list[RenderableType] = [_Fitted(report.results, g) for g in group_names([r.name for r in report.results])]
    items += [line(f"cost per task, {key}: {value}") for key, value in report.costs.items()]
    if report.env_differences:
        items.append(line("[bold]environment differences[/]:"))
        items += [line(f"  {diff}") for diff in report.env_differences]
    items.append(line(" ".join(f"{k}={v}" for k, v in sorted(report.counts().items())) or "no metrics"))
    return Group(*items)


class _Fitted:
    """One group's table in the widest layout that fits the console."""

    def __init__(self, results: Sequence[MetricResult], group: NameGroup) -> None:
        self.view = _View(results, group)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        full = self.view.table(short=False, broken=False)
        if Measurement.get(console, options.update(max_width=10_000), full).maximum <= width:
            yield full
            return
        for broken in (False, True):  # abbreviated notes, then labels broken after each '/'
            headers, rows = self.view.cells(short=True, broken=broken)
            widths = _widths([headers, *rows], width)
            if widths is not None:
                yield self.view.table(short=True, broken=broken, widths=widths)
                return
        yield from self.view.blocks()


class _View:
    def __init__(self, results: Sequence[MetricResult], group: NameGroup) -> None:
        self.group = group
        self.rows = [(results[i], label) for i, label in group.rows]
        directions = {r.direction for r, _ in self.rows}
        limits = {r.threshold for r, _ in self.rows}
        self.direction = directions.pop() if len(self.rows) > 1 and len(directions) == 1 else None
        self.limit = limits.pop() if len(self.rows) > 1 and len(limits) == 1 else None

    def title(self) -> str:
        parts = [self.group.title] if self.group.title else []
        if self.direction is not None:
            parts.append(f"{self.direction} is better")
        if self.limit:
            parts.append(f"threshold {self.limit}")
        return "; ".join(parts)

    def cells(self, *, short: bool, broken: bool) -> tuple[list[str], list[list[str]]]:
        """Header and row cells (markup) of the table; ``short``: notes abbreviated, directions as arrows."""
        arrows = self.arrows(short)
        headers = ["metric"] + (["better"] if self.direction is None and not arrows else [])
        headers += [h.replace(" ", "\n") if short else h for h in _HEADERS]  # narrow: headers on two lines
        headers += ["threshold"] if self.limit is None else []
        headers.append("verdict")
        rows = []
        for r, label in self.rows:
            shown = label.replace("/", "/\n") if broken else label
            cells = [f"{_ARROWS[r.direction]} {shown}" if arrows else shown]
            cells += [r.direction] if self.direction is None and not arrows else []
            cells += _numbers(r)
            cells += [_condition(r)] if self.limit is None else []
            cells.append(_verdict(r, short))
            rows.append(cells)
        return headers, rows

    def arrows(self, short: bool) -> bool:
        """Show the direction as an arrow before the name instead of a column."""
        return short and self.direction is None and all(r.direction in _ARROWS for r, _ in self.rows)

    def table(self, *, short: bool, broken: bool, widths: list[int] | None = None) -> Table:
        headers, rows = self.cells(short=short, broken=broken)
        notes = {r.note for r, _ in self.rows if r.note} if short else set()
        legend = [f"{SHORT_NOTES[n]}: {n}" for n in sorted(notes) if n in SHORT_NOTES]
        if self.arrows(short):
            legend.insert(0, "↑ higher is better, ↓ lower is better")
        table = Table(title=self.title() or None, title_justify="left", caption="; ".join(legend) or None,
                      caption_justify="left", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False,
                      collapse_padding=True, padding=(0, 0) if short else (0, 1))
        for j, header in enumerate(headers):
            numeric = header.replace("\n", " ") in _HEADERS
            table.add_column(header, justify="right" if numeric else "left", overflow="fold",
                             width=widths[j] if widths else None)
        for cells in rows:
            table.add_row(*cells)
        return table

    def blocks(self) -> Iterator[RenderableType]:
        if self.title():
            yield Text(self.title(), style="italic")
        for r, label in self.rows:
            yield Text.from_markup(f"[bold]{label}[/]: {_verdict(r, short=False)}")
            facts = [f"{h} {n}" for h, n in zip(_HEADERS, _numbers(r), strict=True)]
            facts += [f"better {r.direction}"] if self.direction is None else []
            facts += [f"threshold {_condition(r)}"] if self.limit is None and r.threshold else []
            yield Text("  " + ", ".join(facts))


def _numbers(r: MetricResult) -> list[str]:
    return [fmt_number(r.base.median), fmt_number(r.cand.median), fmt_number(r.ratio, ".3f"),
            f"{fmt_number(r.ci[0], '.3f')}..{fmt_number(r.ci[1], '.3f')}", fmt_number(r.p_value, ".3g"),
            f"{fmt_number(r.base.cv, '.1%')}/{fmt_number(r.cand.cv, '.1%')}"]


def _condition(r: MetricResult) -> str:
    """The threshold; one written for exactly this metric shows only its condition (the name is beside it)."""
    return r.threshold[len(r.name) + 1:] if r.threshold.startswith(r.name + " ") else r.threshold


def _verdict(r: MetricResult, short: bool) -> str:
    color = _COLORS.get(r.verdict, "")
    text = f"[{color}]{r.verdict}[/]" if color else r.verdict
    note = SHORT_NOTES.get(r.note, r.note) if short else r.note
    return text + (f" ({note})" if note else "")


def _widths(table: list[list[str]], width: int) -> list[int] | None:
    """Column widths (no padding, one separator between columns) that fit ``width`` with no word cut: each
    column gets its longest word, then what is left goes to the columns that need least to fit on one line.
    ``None`` when even the longest words do not fit."""
    plain = [[Text.from_markup(cell).plain for cell in row] for row in table]
    columns = range(len(plain[0]))
    lows = [max(len(word) for row in plain for word in row[j].split() or [""]) for j in columns]
    highs = [max(len(part) for row in plain for part in row[j].split("\n")) for j in columns]
    spare = width - (len(lows) - 1) - sum(lows)
    if spare < 0:
        return None
    widths = list(lows)
    for j in sorted(columns, key=lambda j: highs[j] - lows[j]):
        grow = min(spare, highs[j] - lows[j])
        widths[j] += grow
        spare -= grow
    return widths
