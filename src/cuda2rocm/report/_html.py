"""Single-file HTML report: one jinja2 template with inline CSS and an inline SVG chart, no external assets.

The page reads top down as a verdict: risk, effort and proof of concept, the counts by severity and by layer
(the chart), then the critical and high findings; the sections and every finding by file follow collapsed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import PurePath
from typing import NamedTuple

import jinja2
from markupsafe import Markup, escape

from cuda2rocm import __version__
from cuda2rocm.model import Finding, Layer, Severity
from cuda2rocm.report._data import by_file, code_spans, location, rule_url, severity_counts, where
from cuda2rocm.report._tables import summary_lines, tables
from cuda2rocm.results import ScanResult

#: severities from worst to mildest, as the chart stacks them
_ORDER = sorted(Severity, reverse=True)
#: the verdict's list of findings: these severities, worst first
_URGENT = (Severity.CRITICAL, Severity.HIGH)
_VERDICT_LABELS = ("Risk", "Effort", "Proof of concept")


class Bar(NamedTuple):
    severity: str
    n: int
    x: float
    width: float


class Row(NamedTuple):
    layer: str
    total: int
    y: int
    bars: tuple[Bar, ...]


class Chart(NamedTuple):
    """Findings per layer, stacked by severity: plain numbers the template draws as SVG rectangles."""

    width: int
    height: int
    label_width: int
    row_height: int
    rows: tuple[Row, ...]


def chart(findings: Sequence[Finding], *, width: int = 560, label_width: int = 90, row_height: int = 22) -> Chart:
    counts = {(f.layer, f.severity): 0 for f in findings}
    for f in findings:
        counts[(f.layer, f.severity)] += 1
    return chart_of_counts(counts, width=width, label_width=label_width, row_height=row_height)


def chart_of_counts(counts: Mapping[tuple[Layer, Severity], int], *, width: int = 560, label_width: int = 90,
                    row_height: int = 22) -> Chart:
    """The findings-by-layer chart from counts per (layer, severity)."""
    totals = {layer: sum(n for (lay, _), n in counts.items() if lay == layer) for layer in Layer}
    scale = (width - label_width - 40) / max(max(totals.values(), default=0), 1)
    rows = []
    for i, layer in enumerate(Layer):
        x = float(label_width)
        bars = []
        for sev in _ORDER:
            n = counts.get((layer, sev), 0)
            if n:
                bars.append(Bar(str(sev), n, round(x, 1), round(n * scale, 1)))
                x += n * scale
        rows.append(Row(str(layer), totals[layer], i * row_height, tuple(bars)))
    return Chart(width, len(rows) * row_height, label_width, row_height, tuple(rows))


def title_of(result: ScanResult) -> str:
    """The project's name: the scanned directory's own name (``result.project``), else the root's last part."""
    return result.project or PurePath(result.root).name or result.root


def code_markup(text: str) -> Markup:
    """``text`` escaped, with its backtick code spans as ``<code>`` elements."""
    return Markup("").join(Markup("<code>{}</code>").format(part) if is_code else escape(part)
                           for is_code, part in code_spans(text))


def _load(name: str) -> str:
    return resources.files("cuda2rocm.report").joinpath(f"templates/{name}").read_text(encoding="utf-8")


def template(name: str = "report.html.j2") -> jinja2.Template:
    """One of the report's HTML templates (``templates/``; they share ``style.css.j2``), autoescaped."""
    env = jinja2.Environment(loader=jinja2.FunctionLoader(_load), autoescape=True,
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    env.filters["code"] = code_markup
    return env.get_template(name)


def render_html(result: ScanResult) -> str:
    summary = summary_lines(result)
    urgent = sorted((f for f in result.findings if f.severity in _URGENT), key=lambda f: (-f.severity, f.sort_key()))
    return template().render(
        result=result,
        title=title_of(result),
        verdict=[(label, value) for label, value in summary if label in _VERDICT_LABELS],
        facts=[(label, value) for label, value in summary if label not in _VERDICT_LABELS],
        tables=tables(result),
        findings=result.findings,
        urgent=urgent,
        groups=by_file(result.findings),
        counts=severity_counts(result.findings),
        chart=chart(result.findings),
        severities=[str(s) for s in _ORDER],
        where=where,
        location=location,
        rule_url=rule_url,
        version=__version__,
    )
