"""The delivery report (``cuda2rocm report``) as Markdown, JSON or one self-contained HTML file.

Every human-readable section is built once here as plain tables (:func:`sections`), which Markdown and HTML both
render; HTML adds the charts (inline SVG: the checklist strip, findings by layer, relative error by tensor,
performance ratios with their confidence intervals). JSON is the report value itself as ``codec.encode`` writes
it, described by docs/schema/report.schema.json.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import NamedTuple

from markupsafe import Markup

from cuda2rocm.checklist.delivery import DeliveryReport
from cuda2rocm.checklist.evidence import Ref
from cuda2rocm.checklist.items import Status
from cuda2rocm.report._markdown import Md, code, inline, table_lines
from cuda2rocm.report._tables import Table

STATUS_LABEL = {Status.DONE: "done", Status.PARTIAL: "partial", Status.NOT_STARTED: "not started",
                Status.FAILED: "failed"}


class Section(NamedTuple):
    key: str
    title: str
    lines: tuple[str, ...]  # paragraphs before the tables (plain text with `code` spans)
    tables: tuple[Table, ...]


def _num(x: float | None, fmt: str = ".3g") -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, fmt)


def _refs(refs: Sequence[Ref]) -> str:
    return "\n".join(r.path for r in refs) or "-"


def _records(report: DeliveryReport) -> list[Ref]:
    seen: dict[str, Ref] = {}
    for it in report.checklist:
        for r in it.evidence:
            seen.setdefault(r.path, r)
    return sorted(seen.values(), key=lambda r: r.path)


def checklist_table(report: DeliveryReport) -> Table:
    rows = [(it.id, it.title, STATUS_LABEL[it.status], "\n".join(it.reasons), _refs(it.evidence))
            for it in report.checklist]
    return Table("checklist", "Delivery checklist", ("Item", "What", "Status", "Why", "Evidence"), rows)


def record_table(refs: Sequence[Ref], key: str = "records", title: str = "Evidence records") -> Table:
    rows = [(r.path, r.kind, r.command, r.started_at, r.machine or "-", r.tool_version,
             "" if r.exit_status is None else str(r.exit_status), "stale: " + "; ".join(r.problems) if r.stale else "")
            for r in refs]
    return Table(key, title, ("Record", "Kind", "Command", "Started", "Machine", "Tool", "Exit", "Note"), rows)


def sections(report: DeliveryReport) -> list[Section]:
    """Every section with content, in report order (the checklist first)."""
    rows: list[tuple[str, ...]]
    lines: list[str]
    tables: list[Table]
    out = [Section("checklist", "Delivery checklist", (_summary_line(report),), (checklist_table(report),))]
    if report.remaining:
        rows = [(w.risk, w.item, w.title, STATUS_LABEL[w.status], "\n".join(w.todo)) for w in report.remaining]
        title = "Remaining work, riskiest first"
        out.append(Section("remaining", title, (),
                           (Table("remaining", title, ("Risk", "Item", "What", "Status", "To do"), rows),)))
    if report.scan is not None:
        s = report.scan
        low, high = s.effort_person_days
        scan_lines = [f"Project `{s.project}`, target {s.target_gpu or '-'}: risk {s.risk}, effort {low}-{high} "
                 "person-days." + (f" Proof of concept: {s.proof_of_concept}" if s.proof_of_concept else "")]
        tables = [Table("layers", "Layers", ("Layer", "Difficulty", "Findings", "Why"),
                        [(r.layer, r.difficulty, str(layer_totals(s).get(r.layer, 0)), "; ".join(r.reasons))
                         for r in s.layers])]
        if s.signals:
            tables.append(Table("signals", "High-risk signals", ("Signal",), [(x,) for x in s.signals]))
        out.append(Section("scan", "Assessment (scan)", tuple(scan_lines), tuple(tables)))
    if report.coverage is not None:
        cov = report.coverage
        line = (f"{cov.converted} CUDA references converted, {cov.unsupported} unsupported left: coverage "
                f"{cov.coverage:.1%}. Files: " + ", ".join(f"{n} {k}" for k, n in cov.by_status.items()) + ".")
        if cov.open_findings:
            line += (f" Coverage counts references only: {len(cov.open_findings)} high or critical findings are "
                     "still open (" + ", ".join(cov.open_findings[:5])
                     + (f" and {len(cov.open_findings) - 5} more" if len(cov.open_findings) > 5 else "") + ").")
        rows = [(lib, str(n)) for lib, n in cov.by_library.items()]
        tables = [Table("coverage", "Converted references by library", ("Library", "References"), rows)]
        if cov.failed:
            tables.append(Table("convert_failed", "Files that failed to convert", ("File",),
                                [(f,) for f in cov.failed]))
        out.append(Section("coverage", "Translation coverage (convert)", (line,), tuple(tables)))
    if report.compile is not None:
        v = report.compile
        ok = sum(1 for u in v.units if u.ok)
        rows = [(u.path, "ok" if u.ok else "error", u.first_error) for u in v.units]
        rows += [(f, "not translated", "") for f in v.convert_failures]
        out.append(Section("compile", "Compile results (verify)",
                           (f"{ok} of {len(v.units)} translation units compile with hipcc for {v.arch}.",),
                           (Table("compile", "Translation units", ("Unit", "Result", "First error"), rows),)))
    if report.correctness:
        lines, tables = [], []
        for i, c in enumerate(report.correctness):
            head = f"`{c.base}` vs `{c.cand}`: " if c.base or c.cand else ""
            verdict = "pass" if c.passed else (f"first divergence `{c.first_divergence}`: "
                                              + ("; ".join(c.first_reasons) or "fail")
                                              if c.first_divergence else "fail")
            lines.append(f"{head}{verdict} ({c.record.path})")
            lines += [f"warning: {w}" for w in c.warnings]
            if c.tensors:
                rows = [(t.name, t.status, t.dtype, t.policy, _num(t.max_abs), _num(t.rel_l2), _num(t.max_rel_l2),
                         _num(t.cosine, ".6f"), "; ".join(t.reasons)) for t in c.tensors]
                tables.append(Table(f"tensors-{i}", f"Tensors ({c.record.path})",
                                    ("Tensor", "Status", "Dtype", "Policy", "Max abs", "Rel L2", "Limit", "Cosine",
                                     "Why"), rows))
            checks = [(x.name, "ok" if x.ok else "fail", x.detail) for x in (*c.curves, *c.metrics)]
            if checks:
                tables.append(Table(f"checks-{i}", f"Curves and metrics ({c.record.path})",
                                    ("Name", "Result", "Why"), checks))
        out.append(Section("correctness", "Correctness (compare)", tuple(lines), tuple(tables)))
    if report.performance:
        lines, tables = ["Ratio = candidate / CUDA baseline (median), with its 95% bootstrap interval. Per "
                         "comparison (the same metrics) the newest run under the thresholds of cuda2rocm.toml "
                         "decides; a run with looser thresholds is not evidence (docs/report.md, item CL8)."], []
        tables.append(Table("perf-history", "Runs of each comparison, oldest first",
                            ("Comparison", "Record", "Started", "Thresholds", "Result", "Counts as", "Ran on"),
                            [(p.comparison, p.record.path, p.record.started_at,
                              ", ".join(dict.fromkeys(m.threshold for m in p.metrics if m.threshold)) or "-",
                              "pass" if p.passed else "fail", p.role, p.platforms)
                             for p in sorted(report.performance, key=lambda p: p.comparison)]))
        for i, p in enumerate(report.performance):
            lines += [f"{p.record.path}: environment differs: {x}" for x in p.env_differences]
            rows = [(m.metric, m.direction, _num(m.base_median), _num(m.cand_median), _num(m.ratio, ".3f"),
                     f"[{_num(m.ci_low, '.3f')}, {_num(m.ci_high, '.3f')}]", _num(m.p_value), m.threshold or "-",
                     m.verdict, m.note) for m in p.metrics]
            tables.append(Table(f"performance-{i}", f"Metrics ({p.record.path})",
                                ("Metric", "Better", "CUDA", "ROCm", "Ratio", "95% CI", "p", "Threshold", "Verdict",
                                 "Note"), rows))
        out.append(Section("performance", "Performance against the CUDA baseline", tuple(lines), tuple(tables)))
    if report.comm:
        rows = [(c.record.path, c.platform, c.backend, str(c.world_size), str(c.nodes), str(c.results), str(c.wrong),
                 _num(c.peak_busbw_gbps, ".1f")) for c in report.comm]
        out.append(Section("comm", "Collective communication (comm)", (),
                           (Table("comm", "Runs", ("Record", "Platform", "Backend", "GPUs", "Nodes", "Results",
                                                   "Wrong", "Peak bus GB/s"), rows),)))
    if report.machines:
        rows = [(m.platform, m.host, ", ".join(m.gpus) or "-", m.driver or "-", m.cuda or "-", m.rocm or "-",
                 m.os or "-", "yes" if m.container else "no", m.machine) for m in report.machines]
        out.append(Section("machines", "Machines (CUDA baseline and ROCm)", (),
                           (Table("machines", "Fingerprints", ("Platform", "Host", "GPUs", "Driver", "CUDA", "ROCm",
                                                               "OS", "Container", "Machine"), rows),)))
    if report.dual_platform is not None:
        dual = report.dual_platform
        rows = [("shared by both platforms", "\n".join(dual.shared) or "-"),
                ("platform-specific (behind platform macros or HIP twins)", "\n".join(dual.platform_specific) or "-"),
                ("CUDA CI pipeline", "\n".join(dual.cuda_pipelines) or "-"),
                ("ROCm CI pipeline", "\n".join(dual.rocm_pipelines) or "-"),
                ("baselines to keep", "\n".join(dual.baselines) or "-")]
        out.append(Section("dual", "Dual platform (CUDA and ROCm kept side by side)", dual.todo,
                           (Table("dual", "What each platform keeps", ("What", "Files and records"), rows),)))
    refs = _records(report)
    problems = []
    if report.unreadable:
        problems.append(Table("unreadable", "Records that could not be read", ("Record", "Problem"),
                              [(u.path, u.error) for u in report.unreadable]))
    if report.settings_problem:
        problems.append(Table("settings", "Settings", ("Problem",), [(report.settings_problem,)]))
    out.append(Section("evidence", "Evidence records",
                       (f"{report.records} records read, {len(report.stale)} stale, {len(report.unreadable)} "
                        "unreadable.",), (record_table(refs), *problems)))
    return out


def layer_totals(scan: object) -> dict[str, int]:
    """Findings per layer from the counts the findings-by-layer chart draws (the table shows the same)."""
    out: dict[str, int] = {}
    for c in getattr(scan, "findings", ()):
        out[c.layer] = out.get(c.layer, 0) + c.findings
    return out


def verdict_line(report: DeliveryReport) -> str:
    """One plain line first: ``ready`` when every item is done, else ``not ready`` with the counts of the items
    not done and the riskiest remaining item as the next step."""
    order = (Status.FAILED, Status.NOT_STARTED, Status.PARTIAL)
    counts = ", ".join(f"{report.summary[str(s)]} {STATUS_LABEL[s]}" for s in order if report.summary.get(str(s)))
    if not counts:
        return f"ready: all {len(report.checklist)} items done"
    nxt = report.remaining[0] if report.remaining else None
    step = f"; next: {nxt.item} {nxt.title}" + (f": {nxt.todo[-1]}" if nxt.todo else "") if nxt else ""
    return f"not ready: {counts}{step}"


def _summary_line(report: DeliveryReport) -> str:
    parts = ", ".join(f"{n} {STATUS_LABEL[Status(k)]}" for k, n in report.summary.items() if n)
    return f"{len(report.checklist)} items: {parts}. Each status is decided from the records below (docs/report.md)."


# --- Markdown -----------------------------------------------------------------------------------------------------

def render_markdown(report: DeliveryReport, base: str = "") -> str:
    """``base``: the path from where the report is written to the workspace root ("" when it is written there),
    put before every record link."""
    lines = [f"# cuda2rocm delivery report: {inline(report.workspace)}", "", f"**{inline(verdict_line(report))}**",
             ""]
    if report.target_gpu:
        lines += [f"- **Target GPU:** {inline(report.target_gpu)}"]
    lines += [f"- **Records:** {report.records}", f"- **Tool:** cuda2rocm {inline(report.tool_version)}"]
    for sec in sections(report):
        lines += ["", f"## {inline(sec.title)}"]
        for text in sec.lines:
            lines += ["", inline(text)]
        for t in sec.tables:
            if sec.title != t.title:
                lines += ["", f"### {inline(t.title)}"]
            rows = [_md_links(t, row, base) for row in t.rows]
            lines += ["", *table_lines(t.headers, rows)]
    return "\n".join(lines) + "\n"


def _md_links(table: Table, row: tuple[str, ...], base: str = "") -> tuple[str, ...]:
    """Record paths as links relative to where the report is written (``base``: to the workspace root)."""
    def link(paths: str) -> Md:
        return Md("<br>".join(f"[{code(p, table=True)}]({base}{p})" for p in paths.split("\n")))

    if table.key == "checklist":
        return (*row[:4], link(row[4]) if row[4] != "-" else row[4])
    if table.key == "records":
        return (link(row[0]), *row[1:])
    return row


# --- JSON ---------------------------------------------------------------------------------------------------------

def to_json_data(report: DeliveryReport) -> object:
    from cuda2rocm.envelope.codec import encode

    return encode(report)


def render_json(report: DeliveryReport) -> str:
    return json.dumps(to_json_data(report), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


# --- HTML ---------------------------------------------------------------------------------------------------------

STATUS_COLOR = {Status.DONE: "#2e7d32", Status.PARTIAL: "#b26a00", Status.NOT_STARTED: "#8a8a90",
                Status.FAILED: "#c62828"}


def status_strip(report: DeliveryReport, *, cell: int = 80, height: int = 46) -> Markup:
    """The ten items as coloured cells (id and status), an inline SVG."""
    n = len(report.checklist)
    width = n * cell
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="checklist status">']
    for i, it in enumerate(report.checklist):
        x = i * cell
        parts.append(Markup('<rect class="status-{}" x="{}" y="0" width="{}" height="{}" rx="4" fill="{}">'
                            '<title>{} {}: {}</title></rect>').format(
            it.status, x + 2, cell - 4, height - 4, STATUS_COLOR[it.status], it.id, it.title,
            STATUS_LABEL[it.status]))
        parts.append(Markup('<text class="on" x="{}" y="{}" text-anchor="middle" font-weight="600">{}</text>').format(
            x + cell / 2, height / 2, it.id))
        parts.append(Markup('<text class="on" x="{}" y="{}" text-anchor="middle" font-size="10">{}</text>').format(
            x + cell / 2, height / 2 + 13, STATUS_LABEL[it.status]))
    return Markup("").join(Markup(p) if isinstance(p, str) else p for p in parts) + Markup("</svg>")


def charts(report: DeliveryReport) -> dict[str, Markup]:
    """Section key -> its chart (inline SVG), for the sections that have data to draw."""
    from cuda2rocm.model import Layer, Severity
    from cuda2rocm.regress.svg import bar_chart, ratio_chart
    from cuda2rocm.report._html import chart_of_counts

    out: dict[str, Markup] = {"checklist": status_strip(report)}
    if report.scan is not None and report.scan.findings:
        counts = {(Layer(c.layer), Severity[c.severity.upper()]): c.findings for c in report.scan.findings}
        out["scan"] = _layer_svg(chart_of_counts(counts))
    svgs = []
    for c in report.correctness:
        drawn = [t for t in c.tensors if t.rel_l2 is not None][:60]
        if drawn:
            svgs.append(bar_chart([t.name for t in drawn], [t.rel_l2 or 0.0 for t in drawn],
                                  [t.max_rel_l2 for t in drawn],
                                  title=f"relative L2 error by tensor (tick = limit): {c.record.path}"))
    if svgs:
        out["correctness"] = Markup("".join(svgs))
    svgs = []
    for p in report.performance:
        shown = [m for m in p.metrics if math.isfinite(m.ratio)]
        if shown:
            svgs.append(ratio_chart([m.metric for m in shown], [m.ratio for m in shown],
                                    [(m.ci_low, m.ci_high) for m in shown],
                                    [m.verdict in ("fail", "regression") for m in shown],
                                    title=f"ROCm / CUDA ratio with 95% interval: {p.record.path}"))
    if svgs:
        out["performance"] = Markup("".join(svgs))
    return out


def _layer_svg(c: object) -> Markup:
    from cuda2rocm.report._html import template

    return Markup(template("chart.html.j2").render(chart=c))


def render_html(report: DeliveryReport, base: str = "") -> str:
    """``base``: the path from the HTML file's folder to the workspace root, put before record links (so they
    work wherever ``-o`` writes the file)."""
    from cuda2rocm.model import Severity
    from cuda2rocm.report._html import template

    secs = sections(report)
    return template("delivery.html.j2").render(report=report, sections=secs, charts=charts(report),
                                                label=STATUS_LABEL, records=_records(report), base=base,
                                                verdict=verdict_line(report), status_color=STATUS_COLOR,
                                                severities=[str(s) for s in sorted(Severity, reverse=True)])


# --- JSON schema --------------------------------------------------------------------------------------------------

def build_schema() -> dict[str, object]:
    """The JSON schema of the ``json`` format, derived from :class:`DeliveryReport` the way the result envelope's
    payload schemas are (``envelope.schema.payload_schema``). Committed as docs/schema/report.schema.json;
    regenerate with ``python -m cuda2rocm.report._delivery``."""
    from cuda2rocm.checklist.delivery import SCHEMA
    from cuda2rocm.envelope.schema import payload_schema

    defs: dict[str, object] = {}
    root = payload_schema(DeliveryReport, defs)
    name = str(root["$ref"]).rsplit("/", 1)[-1]
    body = dict(defs.pop(name))  # type: ignore[call-overload]
    from cuda2rocm.checklist.items import ITEMS

    checklist = {**body["properties"]["checklist"], "minItems": len(ITEMS), "maxItems": len(ITEMS)}
    body["properties"] = {**body["properties"], "schema": {"const": SCHEMA}, "checklist": checklist}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": f"urn:cuda2rocm:schema:{SCHEMA}",
            "title": "cuda2rocm delivery report", "description": "The `cuda2rocm report --format json` output; "
            "generated from cuda2rocm.checklist.delivery.DeliveryReport.", **body, "$defs": dict(sorted(defs.items()))}


if __name__ == "__main__":  # pragma: no cover - regeneration entry point
    import sys

    sys.stdout.write(json.dumps(build_schema(), indent=2) + "\n")


def rules_markdown() -> str:
    """The evidence rule of every checklist item, as docs/report.md shows it (a test keeps the page in sync)."""
    from cuda2rocm.checklist.items import ITEMS

    lines = []
    for it in ITEMS.values():
        kinds = ", ".join(f"`{k}`" for k in it.kinds)
        lines += [f"### {it.id}: {it.title}", "", f"Reads: {kinds}. Risk from the scan's layers: "
                  f"{', '.join(it.layers)}.", "", it.rule, ""]
        if it.findings_rule:
            lines += [it.findings_rule, ""]
    return "\n".join(lines)
