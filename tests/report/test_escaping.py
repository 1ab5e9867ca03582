"""Every interpolated text is escaped for its format (issue 18 item 14); each test failed before its fix."""

from __future__ import annotations

import json

from cuda2rocm.model import Confidence, Finding, Layer, Severity
from cuda2rocm.report import render_findings


def _finding(message: str, fix: str = "", path: str = "a.cu") -> Finding:
    return Finding("C2R-K101", Severity.HIGH, Confidence.HIGH, Layer.LOW_LEVEL, path, 3, 1, message, fix)


def test_sarif_message_and_fix_are_separate_sentences_and_the_fix_has_its_own_property() -> None:
    sarif = json.loads(render_findings([_finding("uses 32 lanes", "use `warpSize` instead")], "sarif"))
    (result,) = sarif["runs"][0]["results"]
    assert result["message"]["text"] == "uses 32 lanes. Fix: use `warpSize` instead."
    assert result["properties"]["fix"] == "use `warpSize` instead"
    ended = json.loads(render_findings([_finding("uses 32 lanes.", "see docs.")], "sarif"))
    assert ended["runs"][0]["results"][0]["message"]["text"] == "uses 32 lanes. Fix: see docs."
