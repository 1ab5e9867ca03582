"""Single-file HTML report: one jinja2 template with inline CSS, no external assets."""

from __future__ import annotations

from importlib import resources

import jinja2

from cuda2rocm import __version__
from cuda2rocm.report._data import by_file, rule_url, severity_counts, where
from cuda2rocm.report._tables import summary_lines, tables
from cuda2rocm.results import ScanResult


def _template() -> jinja2.Template:
    source = resources.files("cuda2rocm.report").joinpath("templates/report.html.j2").read_text(encoding="utf-8")
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    return env.from_string(source)


def render_html(result: ScanResult) -> str:
    return _template().render(
        result=result,
        summary=summary_lines(result),
        tables=tables(result),
        findings=result.findings,
        groups=by_file(result.findings),
        counts=severity_counts(result.findings),
        where=where,
        rule_url=rule_url,
        version=__version__,
    )
