"""Cross-file hazards on the blind multi-file corpus (tests/hazards/blind_projects/, key committed first).

Each project defines a hazard's fact in one file (a header's warp width, tile size, mask, block size or a
warp-synchronous kernel) and uses it in another; ``scan`` of the project directory must report the finding
where it is used. Matched by file, exact line and rule over the eight labelled rules. Figures on record in
docs/hazards.md ("Constants from other files"): 0/39 before the project model, 39/39 now.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from cuda2rocm.scan.api import scan

ROOT = Path(__file__).parent / "blind_projects"
LABELLED = frozenset({"C2R-K101", "C2R-K103", "C2R-K105", "C2R-K106", "C2R-K201", "C2R-K401", "C2R-K402",
                      "C2R-K701"})
#: the floors: the figures measured when the corpus was scored (raise them, never lower them)
RECALL_FLOOR, PRECISION_FLOOR = 1.0, 1.0

Site = tuple[str, int, str]


def _key() -> dict[str, Any]:
    data: dict[str, Any] = YAML(typ="safe").load((ROOT / "key.yaml").read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def results() -> dict[str, tuple[set[Site], set[Site], set[str]]]:
    """Per project: (expected sites, reported sites of the labelled rules, rules the key says are absent)."""
    out = {}
    for name, spec in sorted(_key().items()):
        found = scan(ROOT / name, target_gpu=str(spec.get("target", "MI300X"))).findings
        got = {(f.path, f.line, f.rule) for f in found if f.rule in LABELLED}
        expected = {(str(e["file"]), int(e["line"]), str(e["rule"])) for e in spec.get("expect") or []}
        out[name] = (expected, got, set(spec.get("absent") or []))
    return out


def test_key_points_at_files_and_lines_of_the_projects() -> None:
    key = _key()
    assert len(key) == len([p for p in ROOT.iterdir() if p.is_dir()]) >= 18
    for name, spec in key.items():
        for e in spec.get("expect") or []:
            lines = (ROOT / name / e["file"]).read_text(encoding="utf-8").split("\n")
            assert lines[int(e["line"]) - 1].strip(), (name, e)
            assert e["rule"] in LABELLED


def test_recall_and_precision_stay_above_the_floor(results: dict[str, tuple[set[Site], set[Site], set[str]]]) -> None:
    tp = sum(len(exp & got) for exp, got, _ in results.values())
    fn = {(name, s) for name, (exp, got, _) in results.items() for s in exp - got}
    fp = {(name, s) for name, (exp, got, _) in results.items() for s in got - exp}
    recall, precision = tp / (tp + len(fn)), tp / max(1, tp + len(fp))
    assert recall >= RECALL_FLOOR, sorted(fn)
    assert precision >= PRECISION_FLOOR, sorted(fp)


def test_absent_rules_are_not_reported(results: dict[str, tuple[set[Site], set[Site], set[str]]]) -> None:
    wrong = {(name, s) for name, (_, got, absent) in results.items() for s in got if s[2] in absent}
    assert not wrong, sorted(wrong)


def test_a_finding_from_a_header_names_the_definition() -> None:
    found = scan(ROOT / "01-block-reduce-warp-macro", target_gpu="MI300X").findings
    uses = [f for f in found if f.path == "src/block_reduce.cu" and f.rule == "C2R-K101"]
    assert uses and all("at include/reduce_config.h:5" in f.message for f in uses), [f.message for f in uses]
