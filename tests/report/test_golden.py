"""Golden files for every format on a hand-built result. Regenerate: UPDATE_GOLDEN=1 pytest tests/report."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from tests.report.sample import FINDINGS, RULES, sample_result

from cuda2rocm.report import FINDINGS_FORMATS, FORMATS, render, render_findings

GOLDEN = Path(__file__).parent / "golden"
SUFFIX = {"text": "txt", "json": "json", "markdown": "md", "html": "html", "sarif": "sarif.json"}


def _check(name: str, actual: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(actual, encoding="utf-8")
    assert actual == path.read_text(encoding="utf-8"), f"{name} differs; UPDATE_GOLDEN=1 to accept"


@pytest.mark.parametrize("fmt", FORMATS)
def test_scan_result_golden(fmt: str) -> None:
    _check(f"scan.{SUFFIX[fmt]}", render(sample_result(), fmt, rules=RULES))


@pytest.mark.parametrize("fmt", FINDINGS_FORMATS)
def test_findings_golden(fmt: str) -> None:
    _check(f"findings.{SUFFIX[fmt]}", render_findings(FINDINGS, fmt, rules=RULES, root="/srv/src"))


@pytest.mark.parametrize("fmt", FORMATS)
def test_render_is_deterministic(fmt: str) -> None:
    assert render(sample_result(), fmt, rules=RULES) == render(sample_result(), fmt, rules=RULES)


def test_unknown_format_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown format 'xml'"):
        render(sample_result(), "xml")
    with pytest.raises(ValueError, match="unknown format 'html'"):
        render_findings(FINDINGS, "html")
