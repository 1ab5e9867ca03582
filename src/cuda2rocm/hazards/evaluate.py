"""Precision and recall of the device rules over a labelled corpus (a folder of snippets + labels.yaml).

Scoring is per snippet and rule: a rule reported on a snippet labelled with it is a true positive, reported
on one not labelled with it a false positive, labelled but not reported a false negative.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from cuda2rocm.hazards import analyze
from cuda2rocm.source.tokens import tokenize


@dataclass
class Score:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    snippets: int = 0  # snippets labelled with this rule
    errors: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0


def load_labels(corpus: Path) -> dict[str, tuple[set[str], str]]:
    data: Any = YAML(typ="safe").load((corpus / "labels.yaml").read_text(encoding="utf-8"))
    return {name: (set(v.get("rules") or []), str(v.get("target") or "MI300X")) for name, v in data.items()}


def score(corpus: Path, rule_ids: list[str]) -> tuple[dict[str, Score], Score]:
    """Per-rule scores and the overall (micro-averaged) score."""
    per = {r: Score() for r in rule_ids}
    total = Score()
    for name, (expected, target) in sorted(load_labels(corpus).items()):
        text = (corpus / name).read_text(encoding="utf-8")
        got = {f.rule for f in analyze(tokenize(text), text, name, target_gpu=target)}
        for r in rule_ids:
            s = per[r]
            s.snippets += r in expected
            if r in got and r in expected:
                s.tp += 1
            elif r in got:
                s.fp += 1
                s.errors.append(f"FP {name}")
            elif r in expected:
                s.fn += 1
                s.errors.append(f"FN {name}")
    for s in per.values():
        total.tp, total.fp, total.fn = total.tp + s.tp, total.fp + s.fp, total.fn + s.fn
        total.errors.extend(s.errors)
    return per, total


def markdown_table(per: dict[str, Score], total: Score, titles: dict[str, str], snippets: int) -> str:
    lines = [f"Measured on {snippets} labelled snippets (`tests/hazards/corpus/`).", "",
             "| rule | title | labelled | TP | FP | FN | precision | recall |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for rid, s in sorted(per.items()):
        lines.append(f"| {rid} | {titles[rid]} | {s.snippets} | {s.tp} | {s.fp} | {s.fn} | "
                     f"{s.precision:.2f} | {s.recall:.2f} |")
    lines.append(f"| **all** | | {sum(s.snippets for s in per.values())} | {total.tp} | {total.fp} | {total.fn} | "
                 f"**{total.precision:.3f}** | **{total.recall:.3f}** |")
    return "\n".join(lines) + "\n"
