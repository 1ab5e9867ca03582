"""`cuda2rocm rules`, `cuda2rocm explain`, and docs/rules.md generated from the registry."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from tests.report.sample import RULES

from cuda2rocm.cli.main import main
from cuda2rocm.report.rules_doc import explain_text, rule_markdown, rules_document
from cuda2rocm.rules import load_all

ROOT = Path(__file__).resolve().parents[2]


def test_docs_rules_md_is_current() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_rule_docs.py"), "--check"], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr


def test_every_registered_rule_has_full_docs_and_an_anchor() -> None:
    registry = load_all()
    assert registry, "no rules registered"
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for rule in registry.values():
        assert rule.what.strip() and rule.why.strip() and rule.example.strip() and rule.instead.strip(), rule.id
        assert f'<a id="{rule.id}"></a>' in doc


def test_rule_markdown_has_the_five_sections() -> None:
    text = rule_markdown(RULES["C2R-K101"])
    headings = ["What it does", "Why it matters on AMD", "Example", "Use instead", "References"]
    positions = [text.index(f"**{h}**") for h in headings]
    assert positions == sorted(positions)
    assert "```\nint lane = threadIdx.x & 31;\n```" in text


def test_document_groups_by_family_in_id_order() -> None:
    doc = rules_document(RULES.values())
    assert doc.index("## Deployment (`deployment`)") < doc.index('<a id="C2R-D301">')
    assert doc.index("| [C2R-D301](#C2R-D301)") < doc.index("| [C2R-K101](#C2R-K101)")


def test_explain_prints_docs(capsys: pytest.CaptureFixture[str]) -> None:
    rule_id = sorted(load_all())[0]
    assert main(["explain", rule_id.lower()]) == 0
    assert capsys.readouterr().out == explain_text(load_all()[rule_id])


def test_explain_unknown_id_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "C2R-Z999"]) == 2
    assert "unknown rule id 'C2R-Z999'" in capsys.readouterr().err


def test_rules_json_lists_every_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--format", "json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in listed] == sorted(load_all())
    assert {"id", "severity", "confidence", "layer", "family", "title"} == set(listed[0])


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_rules_text_and_markdown_name_every_rule(fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--format", fmt]) == 0
    out = capsys.readouterr().out
    assert all(rule_id in out for rule_id in load_all())


def test_rules_bad_format_is_usage_error() -> None:
    assert main(["rules", "--format", "xml"]) == 2
