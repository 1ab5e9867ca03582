"""Recall and precision per kind on issue 32's blind corpus (tests/hazards/blind_kinds/, key committed before any
rule ran on it; see its README.md).

``scan`` runs over the whole corpus, as a user would run it. A key entry ``"expect": "finding"`` is matched by a
finding of any rule of its kind (``KIND_RULES``) on its line; an entry ``"expect": "none"`` (line null) is a
look-alike file, where every line with a finding of the kind's rules is a false positive. In the files with
expected findings, a line of the kind's rules that no entry names is a false positive too, except the definition
of a warp-size constant (C2R-K106), which the README calls neutral. The floors are the figures measured when the
rules were written, rounded down: they may only go up. ``python3 -m pytest tests/hazards/test_blind_kinds.py -s``
prints the table (also ``python3 tests/hazards/test_blind_kinds.py``).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

CORPUS = Path(__file__).parent / "blind_kinds"

#: the rules that report each kind of the key
KIND_RULES: dict[str, frozenset[str]] = {
    "warp-width-name": frozenset({"C2R-K101", "C2R-K102", "C2R-K103", "C2R-K104", "C2R-K105", "C2R-K106",
                                  "C2R-K107", "C2R-K201", "C2R-K202", "C2R-K203", "C2R-K204", "C2R-P110"}),
    "lds-constant": frozenset({"C2R-K401", "C2R-K402"}),
    "launch-bounds-macro": frozenset({"C2R-K702"}),
    "dynamic-parallelism": frozenset({"C2R-K706"}),
    "nvrtc": frozenset({"C2R-K304"}),
    "ptx-module": frozenset({"C2R-K305"}),
    "cufft-callback": frozenset({"C2R-K510"}),
    "python-requires-cuda": frozenset({"C2R-P112", "C2R-P113", "C2R-P101"}),
    "triton-inline-ptx": frozenset({"C2R-P114"}),
    "nccl-env-python": frozenset({"C2R-D103"}),
    "fp8-names": frozenset({"C2R-K505"}),
    "clock": frozenset({"C2R-K806"}),
}
#: findings the key calls neutral: the definition of a warp-size constant (README, "Conventions")
NEUTRAL = frozenset({"C2R-K106"})

#: measured when the rules were written (rounded down): (recall, precision) per kind; precision 1.0 where
#: nothing was reported and nothing expected
FLOORS: dict[str, tuple[float, float]] = {
    "warp-width-name": (1.0, 1.0), "lds-constant": (1.0, 1.0), "launch-bounds-macro": (1.0, 1.0),
    "dynamic-parallelism": (1.0, 1.0), "nvrtc": (1.0, 1.0), "ptx-module": (1.0, 1.0), "cufft-callback": (1.0, 1.0),
    "python-requires-cuda": (1.0, 1.0), "triton-inline-ptx": (1.0, 1.0), "nccl-env-python": (1.0, 1.0),
    "fp8-names": (1.0, 1.0), "clock": (1.0, 1.0), "all": (1.0, 1.0),
}


@dataclass
class Score:
    tp: int = 0
    fn: int = 0
    fp: int = 0
    misses: list[str] = field(default_factory=list)
    false: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0


def score(found: Mapping[str, Mapping[int, set[str]]], key: list[dict[str, object]]) -> dict[str, Score]:
    """Scores per kind (and ``all``) of ``found`` (path -> line -> rules reported there) against the key."""
    per: dict[str, Score] = defaultdict(Score)
    keyed: dict[tuple[str, str], set[int]] = defaultdict(set)  # (case, kind) -> expected lines
    for e in key:
        case, kind = str(e["case"]), str(e["kind"])
        keyed.setdefault((case, kind), set())  # a look-alike file is a case of its kind with no line
        if e["expect"] == "finding":
            line = int(str(e["line"]))
            keyed[(case, kind)].add(line)
            if KIND_RULES[kind] & found.get(case, {}).get(line, set()):
                per[kind].tp += 1
            else:
                per[kind].fn += 1
                per[kind].misses.append(f"{case}:{line}")
    for (case, kind), lines in keyed.items():
        for line, rules in sorted(found.get(case, {}).items()):
            mine = rules & KIND_RULES[kind]
            if mine and line not in lines and not mine <= NEUTRAL:
                per[kind].fp += 1
                per[kind].false.append(f"{case}:{line} {sorted(mine)}")
    total = per["all"]
    for kind in KIND_RULES:
        s = per[kind]
        total.tp, total.fn, total.fp = total.tp + s.tp, total.fn + s.fn, total.fp + s.fp
    return dict(per)


def measure(root: Path = CORPUS) -> dict[str, Score]:
    from cuda2rocm.scan.api import scan

    found: dict[str, dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))
    for f in scan(root, target_gpu="MI300X").findings:
        found[f.path][f.line].add(f.rule)
    key = json.loads((root / "key.json").read_text(encoding="utf-8"))
    return score(found, key)


def table(scores: Mapping[str, Score]) -> str:
    rows = ["| kind | rules | expected | TP | FP | FN | recall | precision |",
            "|---|---|---:|---:|---:|---:|---:|---:|"]
    for kind in [*KIND_RULES, "all"]:
        s = scores.get(kind, Score())
        rules = ", ".join(sorted(KIND_RULES[kind])) if kind in KIND_RULES else ""
        rows.append(f"| {kind} | {rules} | {s.tp + s.fn} | {s.tp} | {s.fp} | {s.fn} | {s.recall:.2f} | "
                    f"{s.precision:.2f} |")
    return "\n".join(rows)


@pytest.fixture(scope="module")
def measured() -> dict[str, Score]:
    scores = measure()
    print("\n" + table(scores))
    return scores


def test_the_key_names_known_kinds_and_existing_lines() -> None:
    key = json.loads((CORPUS / "key.json").read_text(encoding="utf-8"))
    assert {e["kind"] for e in key} == set(KIND_RULES)
    for e in key:
        text = (CORPUS / str(e["case"])).read_text(encoding="utf-8").split("\n")
        if e["expect"] == "finding":
            assert 1 <= int(str(e["line"])) <= len(text), e
        else:
            assert e["expect"] == "none" and e["line"] is None, e


def test_the_scorer_matches_lines_and_counts_look_alikes() -> None:
    key: list[dict[str, object]] = [
        {"case": "a.cu", "line": 3, "kind": "clock", "expect": "finding"},
        {"case": "a.cu", "line": 9, "kind": "clock", "expect": "finding"},
        {"case": "n.cu", "line": None, "kind": "clock", "expect": "none"},
    ]
    found = {"a.cu": {3: {"C2R-K806"}, 5: {"C2R-K806"}, 9: {"C2R-K101"}}, "n.cu": {1: {"C2R-K806", "C2R-K505"}}}
    s = score(found, key)["clock"]
    assert (s.tp, s.fn, s.fp) == (1, 1, 2)


@pytest.mark.parametrize("kind", [*KIND_RULES, "all"])
def test_scores_stay_at_their_floor(measured: dict[str, Score], kind: str) -> None:
    recall, precision = FLOORS[kind]
    s = measured.get(kind, Score())
    assert s.recall >= recall, (kind, s.recall, s.misses)
    assert s.precision >= precision, (kind, s.precision, s.false)


if __name__ == "__main__":
    print(table(measure()))
