"""Precision and recall of the device rules on the blind corpus (tests/hazards/blind/, key frozen first).

The scores may only go up: ``floor.yaml`` holds the figures last measured; a rule that drops below its
floor fails. After an improvement, raise the floor with ``UPDATE_FLOOR=1 python3 -m pytest
tests/hazards/test_blind_corpus.py`` and regenerate the table with
``python3 -m cuda2rocm.hazards.docs tests/hazards/blind docs/hazards.md``.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from cuda2rocm.hazards.docs import BLIND_BEGIN, BLIND_END, render_key_table, update_doc
from cuda2rocm.hazards.engine import device_rules
from cuda2rocm.hazards.evaluate import CLASS_RULES, Score, load_key, score_key

BLIND = Path(__file__).parent / "blind"
FLOOR = BLIND / "floor.yaml"
DOC = Path(__file__).parents[2] / "docs" / "hazards.md"
ALL, DOCS_ONLY = "all", "docs-claims-only"
#: rules of issue 32's kinds, measured on their own blind corpus (tests/hazards/blind_kinds/, test_blind_kinds.py)
KINDS_CORPUS_RULES = frozenset({"C2R-K304", "C2R-K305", "C2R-K510", "C2R-K706", "C2R-K806"})


@pytest.fixture(scope="module")
def measured() -> dict[str, Score]:
    per, total = score_key(BLIND)
    _, docs_total = score_key(BLIND, source="docs")
    return {**per, ALL: total, DOCS_ONLY: docs_total}


def _down(x: float) -> float:
    return math.floor(x * 1000) / 1000


def _floor() -> dict[str, dict[str, float]]:
    data = YAML(typ="safe").load(FLOOR.read_text(encoding="utf-8"))
    return {str(k): {"precision": float(v["precision"]), "recall": float(v["recall"])} for k, v in data.items()}


def test_key_is_large_and_covers_every_rule() -> None:
    cases = load_key(BLIND)
    assert len(cases) >= 150
    files = {p.name for p in (BLIND / "cases").iterdir()}
    assert {c.file for c in cases} == files, "every case has a key entry and every entry a case"
    known = {r.id for r in device_rules()}
    labels = {r for c in cases for e in c.expect for r in e.rules}
    rule_labels = {r for r in labels if r.startswith("C2R-")}
    assert rule_labels <= known, rule_labels - known
    assert known - set(CLASS_RULES.values()) - KINDS_CORPUS_RULES <= rule_labels, "a rule has no case"
    assert set(CLASS_RULES) <= labels - rule_labels, "the class map names classes of the key"
    assert sum(len(c.decoys) for c in cases) >= 100, "look-alike lines are part of the key"


def test_key_points_at_code_lines() -> None:
    for c in load_key(BLIND):
        lines = (BLIND / "cases" / c.file).read_text(encoding="utf-8").split("\n")
        for e in c.expect:
            assert 1 <= e.lines[0] <= e.lines[1] <= len(lines), (c.file, e)
            assert any(lines[i - 1].strip() for i in range(e.lines[0], e.lines[1] + 1)), (c.file, e)


def test_scores_do_not_drop_below_the_floor(measured: dict[str, Score]) -> None:
    if os.environ.get("UPDATE_FLOOR"):
        data = {k: {"precision": _down(s.precision), "recall": _down(s.recall)} for k, s in sorted(measured.items())}
        head = "# Regression floor of the blind corpus: written by UPDATE_FLOOR=1 (see test_blind_corpus.py)\n"
        FLOOR.write_text(head + "\n".join(f"{k}: {{precision: {v['precision']}, recall: {v['recall']}}}"
                                           for k, v in data.items()) + "\n", encoding="utf-8")
    floor = _floor()
    assert set(floor) >= set(measured), "every measured label has a floor (run with UPDATE_FLOOR=1)"
    for label, f in floor.items():
        s = measured.get(label, Score())
        assert s.precision >= f["precision"], (label, s.precision, f, s.errors)
        assert s.recall >= f["recall"], (label, s.recall, f, s.errors)


def test_floor_is_raised_after_improvements(measured: dict[str, Score]) -> None:
    """The floor records the current figures (rounded down), so a gain is kept by the next run."""
    floor = _floor()
    for label, s in measured.items():
        assert _down(s.precision) == floor[label]["precision"] and _down(s.recall) == floor[label]["recall"], (
            f"{label}: measured {s.precision:.3f}/{s.recall:.3f}, floor {floor[label]}: raise it (UPDATE_FLOOR=1)")


def test_docs_table_is_current() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert update_doc(text, render_key_table(BLIND), BLIND_BEGIN, BLIND_END) == text, (
        "regenerate: python3 -m cuda2rocm.hazards.docs tests/hazards/blind docs/hazards.md")


def test_scorer_counts_exact_lines(tmp_path: Path) -> None:
    """The scorer itself: one hit on the right line, one on a wrong line, one miss, one ignored."""
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "a.cu").write_text(
        "__device__ float f(float v) {\n"
        "  v += __shfl_xor_sync(0xffffffff, v, 1);\n"
        "  return __shfl_xor_sync(0xffffffff, v, 2);\n"
        "}\n"
        "__device__ void g() { __nanosleep(10); }\n", encoding="utf-8")
    (tmp_path / "key.yaml").write_text(
        "cases:\n- file: a.cu\n  expect:\n  - {label: C2R-K201, line: 2}\n  - {label: C2R-K201, line: 4}\n"
        "  - {label: texture, line: 1}\n  ignore:\n  - {line: 5, rule: C2R-K504}\n", encoding="utf-8")
    per, total = score_key(tmp_path, classes={})
    assert (per["C2R-K201"].tp, per["C2R-K201"].fp, per["C2R-K201"].fn) == (1, 1, 1)
    assert (per["texture"].tp, per["texture"].fn) == (0, 1)
    assert "C2R-K504" not in per and (total.tp, total.fp, total.fn) == (1, 1, 2)
