"""Assessment on literal scan results: layer grading, risk signals and levels, effort, proof of concept."""

from __future__ import annotations

from cuda2rocm.assess import assess
from cuda2rocm.model import Confidence, Finding, Layer, Severity
from cuda2rocm.scan.result import BinaryArtifact, Deployment, FileInfo, ScanResult

ALL_BASELINES = {"tests": True, "pinned_versions": True, "benchmarks": True, "ci": True}


def _f(rule: str, sev: Severity, layer: Layer, line: int = 1) -> Finding:
    return Finding(rule, sev, Confidence.HIGH, layer, "a.cu", line, 1, "m")


def test_clean_project_is_low() -> None:
    layers, risk = assess(ScanResult(".", "MI300X", files=(FileInfo("a.py", "python", 10),), baselines=ALL_BASELINES))
    assert {la.difficulty for la in layers} == {"low"}
    assert risk.level == "low" and risk.signals == ()
    assert risk.effort_person_days == (0, 7)


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
    assert risk.signals == ("closed CUDA binaries/plugins",) and risk.level == "high"
    assert risk.effort_person_days[0] >= 5


def test_three_soft_signals_make_high_and_poc_mentions_target() -> None:
    findings = (Finding("C2R-D103", Severity.MEDIUM, Confidence.HIGH, Layer.OPS, "Dockerfile", 3, 1,
                        "NCCL variable NCCL_P2P_LEVEL=NVL"),)
    r = ScanResult(".", "MI300X", findings=findings, deployment=Deployment("multi-node", ("x",)),
                   files=(FileInfo("k.cu", "cuda", 300),), stats={"kernels": 6.0, "inline_asm": 7.0},
                   baselines={"tests": False, "pinned_versions": True, "benchmarks": True})
    _, risk = assess(r)
    assert set(risk.signals) == {"much inline PTX", "many custom ops without tests",
                                 "multi-node NCCL/NVLink tuning", "no tests"}
    assert risk.level == "high"
    assert "k.cu" in risk.poc_recommendation and "gfx942" in risk.poc_recommendation
    assert "RCCL" in risk.poc_recommendation
