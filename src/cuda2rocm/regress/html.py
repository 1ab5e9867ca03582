"""The HTML report of a comparison: verdict, first divergence, error-by-layer chart, table, curves."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from cuda2rocm.regress.svg import bar_chart, line_chart
from cuda2rocm.results.regress import CompareResult, CurveReport, MetricReport, TensorReport

_STYLE = ("body{font-family:sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse}"
          "td,th{border:1px solid #ccc;padding:2px 6px;font-size:12px;text-align:right}"
          "td:first-child{text-align:left}.fail{color:#b00}.pass{color:#070}")


def render(result: CompareResult | None = None, curves: Sequence[CurveReport] = (),
           metrics: Sequence[MetricReport] = ()) -> str:
    body = []
    if result is not None:
        body += _tensors(result)
    for c in curves:
        body += _curve(c)
    if metrics:
        body += _metrics(metrics)
    ok = (result is None or result.passed) and all(c.ok for c in curves) and all(m.ok for m in metrics)
    verdict = '<h2 class="pass">PASS</h2>' if ok else '<h2 class="fail">FAIL</h2>'
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>cuda2rocm compare</title>"
            f"<style>{_STYLE}</style></head><body><h1>cuda2rocm compare</h1>{verdict}{''.join(body)}</body></html>")


def _tensors(result: CompareResult) -> list[str]:
    first = result.first_divergence
    out = [f"<p>base: <code>{escape(result.base)}</code><br>candidate: <code>{escape(result.cand)}</code></p>"]
    out += [f'<p class="fail">warning: {escape(w)}</p>' for w in result.warnings]
    if first is not None:
        out.append(f'<p class="fail">first divergence: <b>{escape(first.name)}</b> ({escape(first.status)}'
                   f"{': ' + escape('; '.join(first.reasons)) if first.reasons else ''})</p>")
    with_stats = [r for r in result.reports if r.stats is not None]
    if with_stats:
        out.append(bar_chart([r.name for r in with_stats], [r.stats.rel_l2 for r in with_stats if r.stats],
                             [r.tolerance.max_rel_l2 if r.tolerance else None for r in with_stats],
                             title="relative L2 error by layer (execution order; tick = limit)"))
    out.append(_table(result.reports))
    return out


def _table(reports: Sequence[TensorReport]) -> str:
    head = ("tensor", "status", "dtype", "policy", "max abs", "max rel", "max ULP", "rel L2", "cosine",
            "mismatch", "NaN b/c", "Inf b/c")
    rows = ["<table><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"]
    for r in reports:
        s = r.stats
        cells = [r.name, r.status, r.dtype, r.policy]
        if s is not None:
            cells += [f"{s.max_abs:.3g}", f"{s.max_rel:.3g}", "" if s.max_ulp is None else f"{s.max_ulp:.0f}",
                      f"{s.rel_l2:.3g}", f"{s.cosine:.8f}", f"{s.mismatch_fraction:.3%}",
                      f"{s.nan_base}/{s.nan_cand}", f"{s.inf_base}/{s.inf_cand}"]
        else:
            cells += [""] * 8
        cls = "pass" if r.ok else "fail"
        rows.append(f'<tr class="{cls}">' + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
    return "".join(rows) + "</table>"


def _curve(c: CurveReport) -> list[str]:
    chart = line_chart([("baseline", c.base.steps, c.base.values), ("candidate", c.cand.steps, c.cand.values)],
                       title=f"{c.tag} (baseline vs candidate)")
    status = '<span class="pass">ok</span>' if c.ok else f'<span class="fail">{escape("; ".join(c.reasons))}</span>'
    return [f"<h3>curve {escape(c.tag)}</h3>", chart, f"<p>{status}</p>"]


def _metrics(metrics: Sequence[MetricReport]) -> list[str]:
    rows = "".join(f'<tr class="{"pass" if m.ok else "fail"}"><td>{escape(m.name)}</td><td>{m.base}</td>'
                   f"<td>{m.cand}</td><td>{escape(m.reason or 'ok')}</td></tr>" for m in metrics)
    return [f"<h3>metrics</h3><table><tr><th>metric</th><th>base</th><th>candidate</th><th></th></tr>{rows}</table>"]
