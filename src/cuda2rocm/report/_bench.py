"""``bench compare`` (and ``comm --compare``): the metric-by-metric table of a :class:`perf.compare.Report`."""

from __future__ import annotations

import math
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table

from cuda2rocm.perf.compare import Report
from cuda2rocm.report._console import line

_COLORS = {"fail": "red", "regression": "red", "improvement": "green", "ok": "", "missing": "yellow"}


def fmt_number(value: Any, spec: str = ".4g") -> str:
    """``value`` formatted, ``-`` for a missing or NaN value."""
    return "-" if value is None or (isinstance(value, float) and math.isnan(value)) else format(value, spec)


def render_rich(report: Report) -> Group:
    table = Table("metric", "better", "base median", "cand median", "ratio", "95% CI", "p", "spread b/c",
                  "threshold", "verdict")
    for r in report.results:
        color = _COLORS.get(r.verdict, "")
        verdict = f"[{color}]{r.verdict}[/]" if color else r.verdict
        table.add_row(r.name, r.direction, fmt_number(r.base.median), fmt_number(r.cand.median),
                      fmt_number(r.ratio, ".3f"), f"{fmt_number(r.ci[0], '.3f')}..{fmt_number(r.ci[1], '.3f')}",
                      fmt_number(r.p_value, ".3g"), f"{fmt_number(r.base.cv, '.1%')}/{fmt_number(r.cand.cv, '.1%')}",
                      r.threshold, verdict + (f" ({r.note})" if r.note else ""))
    items: list[RenderableType] = [table]
    items += [line(f"cost per task, {key}: {value}") for key, value in report.costs.items()]
    if report.env_differences:
        items.append(line("[bold]environment differences[/]:"))
        items += [line(f"  {diff}") for diff in report.env_differences]
    items.append(line(" ".join(f"{k}={v}" for k, v in sorted(report.counts().items())) or "no metrics"))
    return Group(*items)
