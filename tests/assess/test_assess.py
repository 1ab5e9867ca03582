"""Assessment on literal scan results: layer grading, risk signals and levels, effort, proof of concept."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuda2rocm.assess import assess
from cuda2rocm.model import Confidence, Finding, Layer, Severity
from cuda2rocm.scan.result import BinaryArtifact, Deployment, FileInfo, ScanResult

ALL_BASELINES = {"tests": True, "pinned_versions": True, "benchmarks": True, "ci": True}


def _f(rule: str, sev: Severity, layer: Layer, line: int = 1) -> Finding:
    return Finding(rule, sev, Confidence.HIGH, layer, "a.cu", line, 1, "m")


def test_clean_project_is_low() -> None:
    # one low finding: something to port (before issue 18 this project had no finding at all and was "low" with
    # 0-7 days, which is the "risk beside nothing to port" defect; nothing to port is tested below)
    findings = (_f("C2R-P104", Severity.LOW, Layer.MODEL),)
    layers, risk = assess(ScanResult(".", "MI300X", files=(FileInfo("a.py", "python", 10),), findings=findings,
                                     baselines=ALL_BASELINES))
    assert {la.difficulty for la in layers} == {"low"}
    assert risk.level == "low" and risk.signals == ()
    assert risk.effort_person_days == (1, 1)  # verification only: the residual model (assess/residual.py)


@pytest.mark.parametrize("files", [(), (FileInfo("a.py", "python", 10), FileInfo("README.md", "other", 3))])
@pytest.mark.parametrize("baselines", [{}, ALL_BASELINES])
def test_nothing_to_port_is_no_risk_and_no_effort(files, baselines) -> None:
    """An empty tree (or one without any CUDA dependence) was "high, 5-21 person-days" beside "nothing to
    port": the missing tests/pins/benchmarks of a project that needs no port counted as risk and effort."""
    info = (Finding("C2R-S199", Severity.INFO, Confidence.HIGH, Layer.BUSINESS, "a.py", 1, 1, "m"),)
    layers, risk = assess(ScanResult(".", "MI300X", files=files, findings=info, baselines=baselines))
    assert risk.level == "none" and risk.signals == () and risk.effort_person_days == (0, 0)
    assert risk.poc_recommendation == "Nothing to port was found."
    assert {la.difficulty for la in layers} == {"low"}


def test_critical_findings_make_high() -> None:
    """Two critical findings (the bundled example's K402) with everything else in order: high, not medium."""
    findings = (_f("C2R-K402", Severity.CRITICAL, Layer.LOW_LEVEL, 41), _f("C2R-K402", Severity.CRITICAL,
                                                                        Layer.LOW_LEVEL, 43))
    _, risk = assess(ScanResult(".", "MI300X", files=(FileInfo("a.cu", "cuda", 100),), findings=findings,
                                baselines=ALL_BASELINES))
    assert risk.level == "high" and risk.signals == ("2 critical finding(s) without an automatic fix",)


_LEVEL = {"none": 0, "low": 1, "medium": 2, "high": 3}
_SEVERITIES = st.sampled_from([s for s in Severity])
_LAYERS = st.sampled_from(list(Layer))
_RULES = st.sampled_from(["C2R-K101", "C2R-P102", "C2R-D103", "C2R-S101", "C2R-E101"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_RULES, _SEVERITIES, _LAYERS), max_size=8),
       st.dictionaries(st.sampled_from(["tests", "pinned_versions", "benchmarks"]), st.booleans()),
       st.integers(0, 8), _LAYERS)
def test_risk_never_falls_when_a_critical_finding_is_added(raw, baselines, kernels, layer) -> None:
    findings = tuple(_f(rule, sev, lay, i + 1) for i, (rule, sev, lay) in enumerate(raw))
    files = (FileInfo("a.cu", "cuda", 50),) if kernels else ()
    r = ScanResult(".", "MI300X", files=files, findings=findings, baselines=baselines,
                   stats={"kernels": float(kernels)})
    worse = ScanResult(".", "MI300X", files=files, baselines=baselines, stats={"kernels": float(kernels)},
                       findings=(*findings, _f("C2R-K402", Severity.CRITICAL, layer, 99)))
    before, after = assess(r)[1], assess(worse)[1]
    assert after.level == "high" and _LEVEL[after.level] >= _LEVEL[before.level]
    assert after.effort_person_days >= (0, 1)
    if before.level == "none":
        assert before.effort_person_days == (0, 0)


def test_layer_points_and_facts() -> None:
    findings = tuple(_f("C2R-K101", Severity.HIGH, Layer.LOW_LEVEL, i) for i in range(4))
    findings += (_f("C2R-P102", Severity.MEDIUM, Layer.MODEL), _f("C2R-P104", Severity.LOW, Layer.MODEL))
    r = ScanResult(".", "MI300X", findings=findings, stats={"kernels": 25.0}, baselines=ALL_BASELINES)
    levels = {la.layer: la for la in assess(r)[0]}
    assert levels[Layer.LOW_LEVEL].difficulty == "high" and levels[Layer.LOW_LEVEL].reasons == ("4 x C2R-K101",)
    assert levels[Layer.MODEL].difficulty == "low"  # 3 points
    assert levels[Layer.EXTENSION].difficulty == "high"
    assert levels[Layer.EXTENSION].reasons[0] == "25 custom kernel(s) to port"


def test_risk_signals_and_hard_signal() -> None:
    binary = BinaryArtifact("libx.so", "elf-shared", ("libcublas.so.12",), False, False)
    r = ScanResult(".", "MI300X", binaries=(binary,), baselines=ALL_BASELINES,
                   files=(FileInfo("a.cu", "cuda", 100),))
    _, risk = assess(r)
    assert risk.signals == ("1 closed CUDA binaries",) and risk.level == "high"
    assert risk.effort_person_days[0] >= 5


def test_three_soft_signals_make_high_and_poc_mentions_target() -> None:
    findings = (Finding("C2R-D103", Severity.MEDIUM, Confidence.HIGH, Layer.OPS, "Dockerfile", 3, 1,
                        "NCCL variable NCCL_P2P_LEVEL=NVL"),)
    r = ScanResult(".", "MI300X", findings=findings, deployment=Deployment("multi-node", ("x",)),
                   files=(FileInfo("k.cu", "cuda", 300),), stats={"kernels": 6.0, "inline_asm": 7.0},
                   baselines={"tests": False, "pinned_versions": True, "benchmarks": True})
    _, risk = assess(r)
    assert set(risk.signals) == {"much inline PTX", "many custom ops without tests (verification gap)",
                                 "multi-node NCCL/NVLink tuning", "no tests (verification gap)"}
    assert risk.level == "high"
    assert "k.cu" in risk.poc_recommendation and "gfx942" in risk.poc_recommendation
    assert "RCCL" in risk.poc_recommendation
