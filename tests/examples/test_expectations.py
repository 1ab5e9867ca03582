"""expectations.yaml stays true to the example: every entry points at the line it describes."""

from __future__ import annotations

import re
from typing import Any

import pytest
from tests.examples.conftest import EXAMPLE, load_expectations

DATA = load_expectations()
PLANTED: list[dict[str, Any]] = DATA["planted"]
DECOYS: list[dict[str, Any]] = DATA["decoys"]
FAMILIES = {"hazards", "scan", "python", "deployment", "build", "convert"}
RULE_ID = re.compile(r"^C2R-[A-Z]\d{3}$")


def _line(path: str, line: int) -> str:
    lines = (EXAMPLE / path).read_text(encoding="utf-8").splitlines()
    assert 1 <= line <= len(lines), f"{path}:{line} is past the end of the file"
    return lines[line - 1]


@pytest.mark.parametrize("item", PLANTED + DECOYS, ids=lambda item: item["tag"])
def test_entry_points_at_its_line(item: dict[str, Any]) -> None:
    assert item["match"] in _line(item["path"], item["line"])
    assert item["what"].strip()


@pytest.mark.parametrize("item", PLANTED, ids=lambda item: item["tag"])
def test_planted_entry_is_well_formed(item: dict[str, Any]) -> None:
    assert item["family"] in FAMILIES
    assert item["keyword"]
    assert item["rule"] == "" or RULE_ID.match(item["rule"]), item["rule"]


def test_tags_are_unique() -> None:
    tags = [item["tag"] for item in PLANTED + DECOYS]
    assert len(tags) == len(set(tags))


def test_no_line_is_both_planted_and_decoy() -> None:
    planted = {(i["path"], i["line"]) for i in PLANTED}
    assert not planted & {(d["path"], d["line"]) for d in DECOYS}


def test_required_plants_and_decoys_are_present() -> None:
    keywords = {i["keyword"] for i in PLANTED}
    assert {"warp-size", "lane-mask", "inline-ptx", "lds", "cublas", "nccl", "thrust", "plugin"} <= keywords
    decoy_text = " ".join(d["match"] for d in DECOYS)
    for needle in ("prop.warpSize", "@triton.jit", "tile[64][64]", "torch.cuda.synchronize()", "CUDA"):
        assert needle in decoy_text


def test_rule_ids_are_registered() -> None:
    from cuda2rocm import rules

    registry = rules.load_all()
    unknown = sorted({i["rule"] for i in PLANTED if i["rule"]} - set(registry))
    assert not unknown, f"expectations.yaml names unregistered rules: {unknown}"
