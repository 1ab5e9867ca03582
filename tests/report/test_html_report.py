"""The scan HTML report reads as a verdict: risk, effort, counts and the chart first, then the critical and
high findings, then the details collapsed; checked in a real headless Chromium where one is installed.

The browser test saves its screenshot to docs/img/scan-report.png when UPDATE_GOLDEN=1."""

from __future__ import annotations

import os
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from tests.report.sample import RULES, sample_result

from cuda2rocm.report import render
from cuda2rocm.report._html import chart, code_markup, title_of
from cuda2rocm.scan.api import scan
from cuda2rocm.scan.result import ScanResult

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "llm-service"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
VIEWPORT = {"width": 1280, "height": 900}


class _Outline(HTMLParser):
    """Section ids in document order, and the ids of sections that sit inside a <details>."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: list[str] = []
        self.open_details = 0
        self.details_sections: set[str] = set()
        self._section_stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "section":
            sid = dict(attrs).get("id") or ""
            self.sections.append(sid)
            self._section_stack.append(sid)
        elif tag == "details" and self._section_stack:
            self.details_sections.add(self._section_stack[-1])

    def handle_endtag(self, tag: str) -> None:
        if tag == "section" and self._section_stack:
            self._section_stack.pop()


def _outline(html: str) -> _Outline:
    parser = _Outline()
    parser.feed(html)
    return parser


def test_verdict_then_urgent_findings_then_collapsed_details() -> None:
    html = render(sample_result(), "html", rules=RULES)
    outline = _outline(html)
    assert outline.sections[:2] == ["verdict", "urgent"]
    assert set(outline.sections[2:]) >= {"layers", "inventory", "plugins", "findings"}
    assert outline.details_sections == set(outline.sections[2:])  # every detail section is collapsible
    verdict = html[html.index('<section id="verdict">'):html.index('<section id="urgent">')]
    for text in ("Risk", "high", "Effort", "15-30 person-days", "Port the fused RMSNorm", "2 high", "1 medium"):
        assert text in verdict
    urgent = html[html.index('<section id="urgent">'):html.index("<h2>Details</h2>")]
    assert urgent.count("<tr><td") == 2 and "reduce.cu:19:20" in urgent and "deploy.yaml" not in urgent


def test_chart_counts_every_finding_once_by_layer_and_severity() -> None:
    findings = sample_result().findings
    c = chart(findings)
    assert sum(b.n for r in c.rows for b in r.bars) == len(findings)
    assert {r.layer: r.total for r in c.rows if r.total} == {"low-level": 3, "ops": 1}
    widest = max(b.x + b.width for r in c.rows for b in r.bars)
    assert widest <= c.width - 40 + 0.5
    html = render(sample_result(), "html", rules=RULES)
    svg = html[html.index("<svg"):html.index("</svg>")]
    assert len(re.findall(r"<rect ", svg)) == sum(len(r.bars) for r in c.rows) > 0


def test_fix_text_code_spans_are_code_elements_and_rule_ids_do_not_wrap() -> None:
    assert str(code_markup("use `a<b>` & `c`")) == "use <code>a&lt;b&gt;</code> &amp; <code>c</code>"
    html = render(sample_result(), "html", rules=RULES)
    assert '<td class="rule"><a href=' in html and ".rule, .where { white-space: nowrap; }" in html
    assert "`" not in re.sub(r"<style>.*?</style>", "", html, flags=re.S)  # no raw backticks left


def test_title_names_the_project_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "my-service"
    project.mkdir()
    (project / "requirements.txt").write_text("torch==2.1.2\n")
    monkeypatch.chdir(project)
    result = scan(".")
    assert result.root == "." and result.project == "my-service"
    assert "<title>cuda2rocm scan: my-service</title>" in render(result, "html")
    assert title_of(ScanResult(root="/srv/projects/llm-service", target_gpu="")) == "llm-service"


def _playwright():  # type: ignore[no-untyped-def]
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("chromium is not installed")
    return sync_api


def test_example_report_in_headless_chromium(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sync_api = _playwright()
    monkeypatch.chdir(ROOT)  # the report shows the root as given: a relative path, as a user would type it
    page_file = tmp_path / "scan.html"
    page_file.write_text(render(scan(EXAMPLE.relative_to(ROOT)), "html"), encoding="utf-8")
    shot = ROOT / "docs" / "img" / "scan-report.png" if os.environ.get("UPDATE_GOLDEN") else tmp_path / "shot.png"
    errors: list[str] = []
    with sync_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True,
            viewport=VIEWPORT, offline=True,
        )
        try:
            page = context.new_page()
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            requests: list[str] = []
            page.on("request", lambda r: requests.append(r.url))
            page.goto(page_file.as_uri())
            assert page.title() == "cuda2rocm scan: llm-service"
            verdict, urgent = page.locator("#verdict").bounding_box(), page.locator("#urgent").bounding_box()
            findings = page.locator("#findings").bounding_box()
            assert verdict and urgent and findings and verdict["y"] < urgent["y"] < findings["y"]
            svg = page.locator("#by-layer svg")
            box = svg.bounding_box()
            assert box and box["width"] > 100 and box["height"] > 100 and svg.locator("rect").count() >= 7
            critical = page.locator("#urgent .sev-critical")
            assert critical.count() == 2
            for i in range(critical.count()):
                crit_box = critical.nth(i).bounding_box()
                assert crit_box and crit_box["y"] + crit_box["height"] < VIEWPORT["height"]
            assert not page.locator("#findings details").get_attribute("open") and \
                not page.locator("#findings details table").first.is_visible()  # collapsed
            rule_cell = page.locator("#urgent td.rule").first
            assert rule_cell.evaluate("e => getComputedStyle(e).whiteSpace") == "nowrap"
            page.screenshot(path=str(shot))
        finally:
            context.close()
    assert errors == []
    assert [u for u in requests if not u.startswith("file:")] == []  # opens offline: no external asset
    assert shot.stat().st_size > 10_000
