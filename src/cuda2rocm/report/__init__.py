"""Formatters: pure functions from results to text. They never see the scanner and never print.

``render(result, fmt)`` renders a :class:`~cuda2rocm.scan.result.ScanResult`; ``render_findings(findings, fmt)``
renders a bare list of findings (``convert`` uses it). Unknown formats raise ``ValueError``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from cuda2rocm import rules as _rules
from cuda2rocm.model import Finding
from cuda2rocm.results import ScanResult
from cuda2rocm.rules import Rule

FORMATS = ("text", "json", "markdown", "html", "sarif")
FINDINGS_FORMATS = ("text", "json", "markdown", "sarif")


def render(result: ScanResult, fmt: str, *, rules: Mapping[str, Rule] | None = None, color: bool = False) -> str:
    """``result`` as ``fmt`` (one of :data:`FORMATS`). ``rules`` defaults to the registry (for SARIF)."""
    if fmt == "text":
        from cuda2rocm.report._text import render_text

        return render_text(result, color=color)
    if fmt == "json":
        from cuda2rocm.report._json import render_json

        return render_json(result)
    if fmt == "markdown":
        from cuda2rocm.report._markdown import render_markdown

        return render_markdown(result)
    if fmt == "html":
        from cuda2rocm.report._html import render_html

        return render_html(result)
    if fmt == "sarif":
        return _render_sarif(result.findings, rules, root=result.root, problems=result, props=_run_properties(result))
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")


def render_findings(
    findings: Sequence[Finding], fmt: str, *, rules: Mapping[str, Rule] | None = None, root: str = ""
) -> str:
    """A bare list of findings as ``fmt`` (one of :data:`FINDINGS_FORMATS`)."""
    if fmt == "text":
        from cuda2rocm.report._text import render_findings_text

        return render_findings_text(findings)
    if fmt == "json":
        from cuda2rocm.report._json import render_findings_json

        return render_findings_json(findings)
    if fmt == "markdown":
        from cuda2rocm.report._markdown import render_findings_markdown

        return render_findings_markdown(findings)
    if fmt == "sarif":
        return _render_sarif(findings, rules, root=root, problems=None, props=None)
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FINDINGS_FORMATS)}")


def _render_sarif(
    findings: Sequence[Finding],
    rules: Mapping[str, Rule] | None,
    *,
    root: str,
    problems: ScanResult | None,
    props: dict[str, object] | None,
) -> str:
    from cuda2rocm.report._sarif import sarif_log

    registry = _rules.load_all() if rules is None else rules
    log = sarif_log(findings, registry, root=root, problems=problems.problems if problems else (), properties=props)
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def _run_properties(result: ScanResult) -> dict[str, object]:
    return {
        "schema_version": result.schema_version,
        "target_gpu": result.target_gpu,
        "risk": result.risk.level,
        "deployment": result.deployment.scale,
    }
