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


# --- line-exact scoring against an answer key (tests/hazards/blind/, format in its README.md) ---

#: issue-17 classes with no rule in the docs of the blind corpus's key, and the rule that now covers each
#: (a class missing here is scored as missed under its own name)
CLASS_RULES: dict[str, str] = {
    "texture": "C2R-K508",
    "coop-groups": "C2R-K705",
    "warp-intrinsic": "C2R-K205",
    "version-guard": "C2R-K805",
    "device-printf": "C2R-K509",
}


@dataclass(frozen=True)
class Expected:
    rules: tuple[str, ...]  # rule ids (alternatives), or one class name
    lines: tuple[int, int]  # inclusive range
    source: str = "docs"  # "issue17" when the expectation comes from issue 17, not from the rule's docs

    @property
    def label(self) -> str:
        return "|".join(self.rules)


@dataclass(frozen=True)
class KeyCase:
    file: str
    target: str
    expect: tuple[Expected, ...]
    decoys: tuple[tuple[int, int], ...]
    ignore: tuple[tuple[tuple[int, int], str | None], ...]  # (lines, rule or None for any rule)


def _span(value: Any) -> tuple[int, int]:
    if isinstance(value, int):
        return value, value
    lo, hi = (int(v) for v in value)
    return lo, hi


def load_key(corpus: Path) -> list[KeyCase]:
    data: Any = YAML(typ="safe").load((corpus / "key.yaml").read_text(encoding="utf-8"))
    cases = []
    for c in data["cases"]:
        expect = tuple(Expected(tuple(str(e["label"]).split("|")), _span(e["line"]), str(e.get("source", "docs")))
                       for e in c.get("expect") or [])
        decoys = tuple(_span(d["line"]) for d in c.get("decoy") or [])
        ignore = tuple((_span(d["line"]), d.get("rule")) for d in c.get("ignore") or [])
        cases.append(KeyCase(str(c["file"]), str(c.get("target") or "MI300X"), expect, decoys, ignore))
    return cases


def _inside(line: int, span: tuple[int, int]) -> bool:
    return span[0] <= line <= span[1]


def score_key(corpus: Path, classes: dict[str, str] | None = None,
              source: str | None = None) -> tuple[dict[str, Score], Score]:
    """Per-label scores (a rule id, or a class name no rule covers yet) and the overall score.

    ``source="docs"`` scores only what the rules' docs claim: issue-17 expectations (and the classes, which
    come from issue 17) are then ignored lines.
    """
    classes = CLASS_RULES if classes is None else classes
    per: dict[str, Score] = {}
    total = Score()

    def bucket(label: str) -> Score:
        return per.setdefault(label, Score())

    for case in load_key(corpus):
        text = (corpus / "cases" / case.file).read_text(encoding="utf-8")
        got = {(f.rule, f.line) for f in analyze(tokenize(text), text, case.file, target_gpu=case.target)}
        ignored = list(case.ignore)
        claimed: set[tuple[str, int]] = set()
        for e in case.expect:
            rules = tuple(classes.get(r, r) for r in e.rules)
            if source is not None and (e.source != source or not all(r.startswith("C2R-") for r in e.rules)):
                ignored.extend((e.lines, r) for r in rules)
                continue
            match = [(r, ln) for r, ln in got if r in rules and _inside(ln, e.lines)]
            label = e.rules[0] if len(e.rules) == 1 or not match else e.rules[rules.index(match[0][0])]
            s = bucket(label)
            s.snippets += 1
            claimed.update(match)
            if match:
                s.tp += 1
            else:
                s.fn += 1
                s.errors.append(f"FN {case.file}:{e.lines[0]} {e.label}")
        for r, ln in sorted(got - claimed):
            if any(_inside(ln, span) and rule in (None, r) for span, rule in ignored):
                continue
            s = bucket(r)
            s.fp += 1
            decoy = " (decoy)" if any(_inside(ln, span) for span in case.decoys) else ""
            s.errors.append(f"FP {case.file}:{ln} {r}{decoy}")
    for s in per.values():
        total.tp, total.fp, total.fn = total.tp + s.tp, total.fp + s.fp, total.fn + s.fn
        total.snippets += s.snippets
        total.errors.extend(s.errors)
    return per, total


def markdown_key_table(per: dict[str, Score], total: Score, docs_total: Score, titles: dict[str, str],
                       cases: int, classes: dict[str, str]) -> str:
    """The blind corpus's table: one row per rule (and per issue-17 class no rule covers), line-exact."""
    lines = [f"Measured on {cases} blind cases (`tests/hazards/blind/`), matched by rule and exact line.", "",
             "| rule | title | expected | TP | FP | FN | precision | recall |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    covered = {v: k for k, v in classes.items()}
    for label, s in sorted(per.items(), key=lambda kv: (not kv[0].startswith("C2R-"), kv[0])):
        title = titles.get(label) or (f"issue-17 class `{label}`: covered by {classes[label]}" if label in classes
                                      else f"issue-17 class `{label}`: no rule yet")
        if label in covered:
            title += f" (covers class `{covered[label]}`)"
        lines.append(f"| {label} | {title} | {s.snippets} | {s.tp} | {s.fp} | {s.fn} | "
                     f"{s.precision:.2f} | {s.recall:.2f} |")
    lines.append(f"| **all** | | {total.snippets} | {total.tp} | {total.fp} | {total.fn} | "
                 f"**{total.precision:.3f}** | **{total.recall:.3f}** |")
    lines.append(f"| **docs claims only** | what the rules' docs promise (no issue-17 entries) | "
                 f"{docs_total.snippets} | {docs_total.tp} | {docs_total.fp} | {docs_total.fn} | "
                 f"**{docs_total.precision:.3f}** | **{docs_total.recall:.3f}** |")
    return "\n".join(lines) + "\n"
