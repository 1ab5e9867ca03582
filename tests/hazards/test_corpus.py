"""Precision and recall of every device rule over the labelled corpus; the table goes to docs/hazards.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from cuda2rocm.hazards.engine import device_rules
from cuda2rocm.hazards.evaluate import load_labels, score

CORPUS = Path(__file__).parent / "corpus"


@pytest.fixture(scope="module")
def scores():
    return score(CORPUS, [r.id for r in device_rules()])


def test_corpus_is_large_and_labelled() -> None:
    labels = load_labels(CORPUS)
    files = {p.name for p in CORPUS.glob("*.cu")}
    assert len(labels) >= 150
    assert set(labels) == files, "every snippet has a label and every label a snippet"
    known = {r.id for r in device_rules()}
    assert all(rules <= known for rules, _ in labels.values())
    negatives = sum(1 for rules, _ in labels.values() if not rules)
    assert negatives >= 50, "look-alike non-hazards are part of the corpus"


def test_every_rule_has_positive_and_negative_snippets() -> None:
    labels = load_labels(CORPUS)
    for r in device_rules():
        positives = [n for n, (rules, _) in labels.items() if r.id in rules]
        assert len(positives) >= 1, f"{r.id} has no labelled snippet"
        family = r.id[4:6].lower()  # "K1" -> snippets "k1..." without this rule are its look-alikes
        lookalikes = [n for n, (rules, _) in labels.items() if n.startswith(family) and r.id not in rules]
        assert lookalikes, f"{r.id} has no look-alike snippet"


def test_overall_precision_and_recall(scores) -> None:
    _, total = scores
    assert total.precision >= 0.95, total.errors
    assert total.recall >= 0.95, total.errors


@pytest.mark.parametrize("rule_id", [r.id for r in device_rules()])
def test_per_rule_recall(scores, rule_id) -> None:
    per, _ = scores
    assert per[rule_id].recall >= 0.75, per[rule_id].errors
    assert per[rule_id].precision >= 0.75, per[rule_id].errors
