"""The hazard engine on the example's device code: every claimed hazard found at its line, no decoy flagged."""

from __future__ import annotations

from typing import Any

import pytest
from tests.examples.conftest import EXAMPLE, load_expectations

from cuda2rocm import hazards
from cuda2rocm.source.tokens import tokenize

DATA = load_expectations()
DEVICE_SUFFIXES = (".cu", ".cuh")
CLAIMED = [i for i in DATA["planted"] if i["rule"].startswith("C2R-K")]
DEVICE_DECOYS = [d for d in DATA["decoys"] if d["path"].endswith(DEVICE_SUFFIXES)]


@pytest.fixture(scope="module")
def found() -> set[tuple[str, str, int]]:
    hits: set[tuple[str, str, int]] = set()
    for source in EXAMPLE.rglob("*.cu"):
        path = source.relative_to(EXAMPLE).as_posix()
        text = source.read_text(encoding="utf-8")
        hits |= {(f.rule, path, f.line) for f in hazards.analyze(tokenize(text), text, path)}
    return hits


@pytest.mark.parametrize("item", CLAIMED, ids=lambda item: item["tag"])
def test_claimed_hazard_is_found(item: dict[str, Any], found: set[tuple[str, str, int]]) -> None:
    assert (item["rule"], item["path"], item["line"]) in found


@pytest.mark.parametrize("decoy", DEVICE_DECOYS, ids=lambda item: item["tag"])
def test_device_decoy_is_not_flagged(decoy: dict[str, Any], found: set[tuple[str, str, int]]) -> None:
    assert not [r for r, p, line in found if p == decoy["path"] and line == decoy["line"]]


def test_every_hazard_finding_is_expected(found: set[tuple[str, str, int]]) -> None:
    planted = {(i["path"], i["line"]) for i in DATA["planted"]}
    assert {(p, line) for _, p, line in found} <= planted
