"""Structured fixes on findings (``model.Fix``): invariants, the one applier, hazard fixes through it, and the
fix in JSON and SARIF (validated against the official OASIS schema)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from cuda2rocm.hazards import analyze, fixes
from cuda2rocm.model import Applicability, Confidence, Edit, Finding, Fix, Layer, Severity
from cuda2rocm.report import render, render_findings
from cuda2rocm.report._schema import shipped_schema
from cuda2rocm.scan.result import ScanResult
from cuda2rocm.source.edits import OverlapError, apply_edits, apply_fixes, fix_edits
from cuda2rocm.source.tokens import tokenize

SARIF_SCHEMA = json.loads((Path(__file__).parent / "report" / "schemas" / "sarif-schema-2.1.0.json").read_text())
KERNEL = ("__device__ int f(bool p) { unsigned b = __ballot_sync(0xffffffff, p);\n"
          "  return __popc(b) + (threadIdx.x & 31); }\n")


def _validate(schema: dict[str, object], data: object) -> None:
    cls = jsonschema.validators.validator_for(schema)
    cls(schema, format_checker=cls.FORMAT_CHECKER).validate(data)


def _found() -> list[Finding]:
    return analyze(tokenize(KERNEL), KERNEL, "k.cu")


def test_manual_fix_has_no_edits_and_safe_or_unsafe_have_some() -> None:
    Fix("read the docs")
    Fix("widen", (Edit(0, 1, "x"),), Applicability.UNSAFE)
    with pytest.raises(ValueError, match="manual fix must not have edits"):
        Fix("m", (Edit(0, 1, "x"),), Applicability.MANUAL)
    with pytest.raises(ValueError, match="safe fix must have edits"):
        Fix("m", (), Applicability.SAFE)


def test_apply_fixes_takes_safe_ones_unless_unsafe_is_asked_and_checks_overlap() -> None:
    safe = Fix("a", (Edit(0, 1, "A"),), Applicability.SAFE)
    unsafe = Fix("b", (Edit(2, 3, "B"),), Applicability.UNSAFE)
    manual = Fix("c")
    assert apply_fixes("abc", [safe, unsafe, manual, None]) == "Abc"
    assert apply_fixes("abc", [safe, unsafe, manual], unsafe=True) == "AbB"
    with pytest.raises(OverlapError):
        apply_fixes("abc", [safe, Fix("d", (Edit(0, 2, "D"),), Applicability.SAFE)])


def test_hazard_findings_carry_their_fix_with_its_applicability() -> None:
    by_rule = {f.rule: f for f in _found()}
    assert {r: f.remedy.applicability for r, f in by_rule.items() if f.remedy} == {
        "C2R-K101": Applicability.SAFE, "C2R-K201": Applicability.SAFE,
        "C2R-K202": Applicability.UNSAFE, "C2R-K203": Applicability.SAFE,
    }
    k201 = by_rule["C2R-K201"]
    assert k201.fix == "safe fix available (--fix-hazards)" and by_rule["C2R-K202"].fix.startswith("unsafe")
    assert k201.remedy is not None and k201.remedy.message == "Replace `0xffffffff` with `0xffffffffffffffffULL`"
    assert apply_fixes(KERNEL, [k201.remedy]) == KERNEL.replace("0xffffffff,", "0xffffffffffffffffULL,")


def test_fix_hazards_edits_are_the_findings_fixes_through_the_one_applier() -> None:
    """``fixes()`` (what --fix-hazards applies) gives the same text as the findings' fixes applied together."""
    remedies = [f.remedy for f in _found()]
    everything = apply_edits(KERNEL, fixes(tokenize(KERNEL), KERNEL, "k.cu"))
    assert everything == apply_fixes(KERNEL, remedies, unsafe=True)
    assert "unsigned long long b" in everything
    safe_only = apply_edits(KERNEL, fixes(tokenize(KERNEL), KERNEL, "k.cu", unsafe=False))
    assert safe_only == apply_fixes(KERNEL, remedies) and "unsigned b" in safe_only
    assert sorted(fix_edits(remedies), key=lambda e: e.start) == fixes(tokenize(KERNEL), KERNEL, "k.cu", unsafe=False)


def test_json_has_the_fix_only_where_there_is_one_and_validates() -> None:
    found = tuple(_found())
    data = json.loads(render(ScanResult(root="p", target_gpu="gfx942", findings=found), "json"))
    _validate(shipped_schema(), data)
    by_rule = {f["rule"]: f for f in data["findings"]}
    assert by_rule["C2R-K202"]["remedy"] == {
        "message": "Replace `unsigned` with `unsigned long long`",
        "edits": [{"start": 27, "end": 35, "replacement": "unsigned long long", "rule": "C2R-K202"}],
        "applicability": "unsafe",
    }
    plain = Finding("C2R-A001", Severity.LOW, Confidence.MEDIUM, Layer.EXTENSION, "a.cu", 3, 1, "m")
    assert "remedy" not in json.loads(render_findings([plain], "json"))["findings"][0]


def test_sarif_fixes_are_replacements_that_rebuild_the_fixed_file() -> None:
    found = _found()
    sarif = json.loads(render_findings(found, "sarif", root="/src"))
    _validate(SARIF_SCHEMA, sarif)
    results = sarif["runs"][0]["results"]
    with_fix = [r for r in results if "fixes" in r]
    assert {r["ruleId"] for r in with_fix} == {"C2R-K101", "C2R-K201", "C2R-K202", "C2R-K203"}
    edits = []
    for r in with_fix:
        (fix,) = r["fixes"]
        assert fix["properties"]["applicability"] in ("safe", "unsafe")
        (change,) = fix["artifactChanges"]
        assert change["artifactLocation"]["uri"] == "k.cu"
        edits += [Edit(x["deletedRegion"]["charOffset"], x["deletedRegion"]["charOffset"]
                       + x["deletedRegion"]["charLength"], x["insertedContent"]["text"])
                  for x in change["replacements"]]
    assert apply_edits(KERNEL, edits) == apply_fixes(KERNEL, [f.remedy for f in found], unsafe=True)
