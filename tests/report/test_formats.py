"""Format-level contracts: JSON against our schema, SARIF against the official schema, safe HTML/Markdown."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import jsonschema
import pytest
from tests.report.sample import FINDINGS, RULES, sample_result

from cuda2rocm.model import Confidence, Finding, Layer, Severity
from cuda2rocm.report import render, render_findings
from cuda2rocm.report._markdown import cell
from cuda2rocm.report._schema import build_schema, dumps, shipped_schema
from cuda2rocm.scan.result import SCHEMA_VERSION, ScanResult

ROOT = Path(__file__).resolve().parents[2]
SARIF_SCHEMA = json.loads((Path(__file__).parent / "schemas" / "sarif-schema-2.1.0.json").read_text())


def _validator(schema: dict[str, object]) -> jsonschema.protocols.Validator:
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def test_json_validates_against_shipped_schema() -> None:
    data = json.loads(render(sample_result(), "json"))
    _validator(shipped_schema()).validate(data)
    assert data["schema_version"] == SCHEMA_VERSION
    assert data["findings"][0]["severity"] == "high" and data["findings"][0]["layer"] == "low-level"


def test_empty_result_validates() -> None:
    _validator(shipped_schema()).validate(json.loads(render(ScanResult(root=".", target_gpu=""), "json")))


def test_schema_rejects_a_wrong_enum() -> None:
    data = json.loads(render(sample_result(), "json"))
    data["findings"][0]["severity"] = "HIGH"
    with pytest.raises(jsonschema.ValidationError):
        _validator(shipped_schema()).validate(data)


def test_committed_schemas_are_current() -> None:
    expected = dumps(build_schema())
    assert (ROOT / "docs" / "schema" / "scan-result.schema.json").read_text() == expected, (
        "regenerate: python -m cuda2rocm.report._schema > docs/schema/scan-result.schema.json (and the package copy)"
    )
    assert shipped_schema() == json.loads(expected)


@pytest.mark.parametrize(
    "text", [render(sample_result(), "sarif", rules=RULES), render_findings(FINDINGS, "sarif", rules=RULES)]
)
def test_sarif_validates_against_official_schema(text: str) -> None:
    _validator(SARIF_SCHEMA).validate(json.loads(text))


def test_official_schema_rejects_bad_sarif() -> None:
    log = json.loads(render(sample_result(), "sarif", rules=RULES))
    log["runs"][0]["results"][1]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    with pytest.raises(jsonschema.ValidationError):
        _validator(SARIF_SCHEMA).validate(log)


def test_sarif_levels_rules_and_locations() -> None:
    run = json.loads(render(sample_result(), "sarif", rules=RULES))["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["C2R-D301", "C2R-K101", "C2R-S900"]
    assert rules[1]["helpUri"].endswith("docs/rules.md#C2R-K101")
    assert rules[1]["defaultConfiguration"] == {"level": "error"}
    levels = {(r["ruleId"], r["level"]) for r in run["results"]}
    assert levels == {("C2R-K101", "error"), ("C2R-D301", "warning"), ("C2R-S900", "note")}
    whole_file = next(r for r in run["results"] if r["ruleId"] == "C2R-S900")
    assert "region" not in whole_file["locations"][0]["physicalLocation"]
    assert whole_file["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "README%20%3Cnotes%3E.md"
    for r in run["results"]:
        assert rules[r["ruleIndex"]]["id"] == r["ruleId"]
    assert run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"].startswith("binary file")


def test_sarif_fingerprints_are_unique_and_survive_line_moves() -> None:
    def prints(findings: tuple[Finding, ...]) -> list[str]:
        run = json.loads(render_findings(findings, "sarif", rules=RULES))["runs"][0]
        return [r["partialFingerprints"]["cuda2rocm/v1"] for r in run["results"]]

    before = prints(FINDINGS)
    moved = tuple(Finding(**{**f.__dict__, "line": f.line + 5 if f.line else 0}) for f in FINDINGS)
    assert len(set(before)) == len(before)
    assert sorted(prints(moved)) == sorted(before)


class _Assets(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.external: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        for name, value in attrs:
            if name in ("src", "href") and tag != "a":
                self.external.append(f"{tag} {name}={value}")


def test_html_is_self_contained_and_escaped() -> None:
    html = render(sample_result(), "html", rules=RULES)
    parser = _Assets()
    parser.feed(html)
    assert parser.external == [] and "script" not in parser.tags and "link" not in parser.tags
    assert "mentions &lt;CUDA&gt; &amp; &#34;NVIDIA&#34;" in html
    assert "<CUDA>" not in html
    for section in ("layers", "inventory", "plugins", "findings"):
        assert f'<section id="{section}">' in html


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        pytest.param("a|b", "a\\|b", id="pipe"),
        pytest.param("x\ny", "x<br>y", id="newline"),
        pytest.param("<T>", "&lt;T&gt;", id="angle-brackets"),
        pytest.param("", " ", id="empty"),
    ],
)
def test_markdown_cell_escaping(raw: str, expected: str) -> None:
    assert cell(raw) == expected


def test_color_text_has_ansi_and_plain_has_none() -> None:
    plain = render(sample_result(), "text")
    colored = render(sample_result(), "text", color=True)
    assert "\x1b[" not in plain and "\x1b[" in colored
    assert re.sub(r"\x1b\[[0-9;]*m", "", colored).split() == plain.split()


def test_findings_json_keeps_order_and_strings() -> None:
    f = Finding("C2R-A001", Severity.LOW, Confidence.MEDIUM, Layer.EXTENSION, "a.cu", 3, 1, "m")
    data = json.loads(render_findings([f], "json"))
    assert data == {
        "schema_version": SCHEMA_VERSION,
        "findings": [
            {
                "rule": "C2R-A001",
                "severity": "low",
                "confidence": "medium",
                "layer": "extension",
                "path": "a.cu",
                "line": 3,
                "col": 1,
                "message": "m",
                "fix": "",
            }
        ],
    }
