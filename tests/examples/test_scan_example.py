"""The issue's acceptance check: scanning the example finds every planted item and no decoy.

Planted items are checked once their rule family has claimed them (``rule`` filled in
expectations.yaml); decoys are checked against every finding the scanner reports.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.examples.conftest import EXAMPLE, load_expectations

DATA = load_expectations()
CLAIMED = [item for item in DATA["planted"] if item["rule"]]
#: input-problem rules describe the file, not its code; they may legitimately touch any line
NOT_CODE_RULES = ("C2R-E",)


@pytest.fixture(scope="module")
def findings() -> set[tuple[str, str, int]]:
    api = pytest.importorskip("cuda2rocm.scan.api", reason="scan is not built yet")
    result = api.scan(str(EXAMPLE))
    return {(f.rule, f.path, f.line) for f in result.findings}


@pytest.mark.parametrize("item", CLAIMED, ids=lambda item: item["tag"])
def test_planted_item_is_found(item: dict[str, Any], findings: set[tuple[str, str, int]]) -> None:
    assert (item["rule"], item["path"], item["line"]) in findings


@pytest.mark.parametrize("decoy", DATA["decoys"], ids=lambda item: item["tag"])
def test_decoy_is_not_flagged(decoy: dict[str, Any], findings: set[tuple[str, str, int]]) -> None:
    hits = [
        rule
        for rule, path, line in findings
        if path == decoy["path"] and line == decoy["line"] and not rule.startswith(NOT_CODE_RULES)
    ]
    assert not hits, f"decoy {decoy['tag']} flagged by {hits}"
