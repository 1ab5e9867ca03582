"""Every interpolated text is escaped for its format (issue 18 item 14); each test failed before its fix."""

from __future__ import annotations

import json
from pathlib import Path

from cuda2rocm.model import Confidence, Finding, Layer, Severity
from cuda2rocm.report import render, render_findings
from cuda2rocm.report._markdown import code, inline
from cuda2rocm.scan.result import RiskAssessment, ScanResult


def _finding(message: str, fix: str = "", path: str = "a.cu") -> Finding:
    return Finding("C2R-K101", Severity.HIGH, Confidence.HIGH, Layer.LOW_LEVEL, path, 3, 1, message, fix)


def test_sarif_message_and_fix_are_separate_sentences_and_the_fix_has_its_own_property() -> None:
    sarif = json.loads(render_findings([_finding("uses 32 lanes", "use `warpSize` instead")], "sarif"))
    (result,) = sarif["runs"][0]["results"]
    assert result["message"]["text"] == "uses 32 lanes. Fix: use `warpSize` instead."
    assert result["properties"]["fix"] == "use `warpSize` instead"
    ended = json.loads(render_findings([_finding("uses 32 lanes.", "see docs.")], "sarif"))
    assert ended["runs"][0]["results"][0]["message"]["text"] == "uses 32 lanes. Fix: see docs."


EVIL = "<img src=x onerror=alert(1)>.cu"


def _md_html(markdown: str) -> str:
    """What a CommonMark + GFM-tables renderer makes of our Markdown (markdown-it, installed with rich)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table").render(markdown)


def _evil_result() -> ScanResult:
    f = _finding("NVIDIA image; use a rocm/* image instead", "Start from `rocm/pytorch:<rocm>_<ubuntu>` or `a|b`",
                 path=EVIL)
    risk = RiskAssessment("high", (), (1, 2), f"build {EVIL} on one MI300X; then *scale* [out](javascript:x)")
    return ScanResult(root=f"proj/{EVIL}", target_gpu="gfx942", findings=(f,), risk=risk)


def test_markdown_code_spans_show_their_text_not_entities() -> None:
    md = render(_evil_result(), "markdown")
    assert "`rocm/pytorch:<rocm>_<ubuntu>`" in md and "&lt;rocm&gt;" not in md
    html = _md_html(md)
    assert "<code>rocm/pytorch:&lt;rocm&gt;_&lt;ubuntu&gt;</code>" in html  # shown as typed
    assert "<code>a|b</code>" in html  # the pipe inside code does not split the table cell


def test_markdown_passes_no_raw_html_or_markup_from_interpolated_text() -> None:
    md = render(_evil_result(), "markdown")
    html = _md_html(md)
    assert "<img" not in html
    assert "<a " not in html.split("<table>")[0]  # the proof-of-concept line makes no link and no emphasis
    assert "<em>" not in html
    assert html.count("&lt;img src=x onerror=alert(1)&gt;.cu") >= 3  # root, proof of concept, file heading


def test_markdown_code_span_fence_is_longer_than_backticks_inside() -> None:
    assert code("a`b") == "``a`b``"
    assert code("`x`") == "`` `x` ``"
    assert code("p | q", table=True) == "`p \\| q`"
    assert _md_html(render_findings([_finding("m", path="we`ird.cu")], "markdown")).count("<code>we`ird.cu</code>") == 1
    assert inline("use ``a`b`` or `c` and a stray ` tick") == "use ``a`b`` or `c` and a stray \\` tick"


def test_html_escapes_every_interpolated_text() -> None:
    html = render(_evil_result(), "html")
    assert "<img" not in html
    assert html.count("&lt;img src=x onerror=alert(1)&gt;.cu") >= 3


def test_long_knowledge_note_is_cut_at_a_word_boundary(tmp_path: Path) -> None:
    from cuda2rocm import knowledge
    from cuda2rocm.scan.api import scan

    note = knowledge.get_env_var("NCCL_NVLS_ENABLE").note
    assert len(note) > 100
    (tmp_path / "Dockerfile").write_text("FROM ubuntu:22.04\nENV NCCL_NVLS_ENABLE=1\n")
    (msg,) = [f.message for f in scan(tmp_path).findings if f.rule == "C2R-D103"]
    shown = msg.split("no effect on RCCL (", 1)[1].removesuffix(")")
    assert shown.endswith(" …") and len(shown) <= 100
    kept = shown.removesuffix(" …")
    assert " ".join(note.split()).startswith(kept) and " ".join(note.split())[len(kept)] == " "
