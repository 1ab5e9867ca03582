"""Grade each of the seven layers from its findings plus a few project-level facts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from cuda2rocm.model import Finding, Layer, Severity
from cuda2rocm.results import LayerAssessment, ScanResult

LEVELS = ("low", "medium", "high")
_WEIGHT = {Severity.INFO: 0, Severity.LOW: 1, Severity.MEDIUM: 2, Severity.HIGH: 4, Severity.CRITICAL: 8}
HIGH_POINTS = 16
MEDIUM_POINTS = 4


def nothing_to_port(r: ScanResult) -> bool:
    """No CUDA dependence at all: no finding above info (input problems aside), no CUDA source, kernel, inline
    assembly, CUDA API use, binary or plugin (``.cu`` files that are already HIP do not count). Missing tests or
    pins are then no migration work."""
    return not (any(f.severity > Severity.INFO and not f.rule.startswith("C2R-E") for f in r.findings)
                or any(f.language == "cuda" and "hip-source" not in f.tags for f in r.files)
                or r.stats.get("kernels", 0) or r.stats.get("inline_asm", 0) or r.api_usage or r.binaries or r.plugins)


def grade_layers(result: ScanResult) -> tuple[LayerAssessment, ...]:
    out = []
    for layer in Layer:
        found = [f for f in result.findings if f.layer == layer and not f.rule.startswith("C2R-E")]
        level, reasons = _from_findings(found)
        for bump, why in _facts(layer, result):
            if LEVELS.index(bump) > LEVELS.index(level):
                level = bump
            reasons.insert(0, why)
        out.append(LayerAssessment(layer, level, tuple(reasons) or ("nothing found",), len(found)))
    return tuple(out)


def _from_findings(found: Sequence[Finding]) -> tuple[str, list[str]]:
    points = sum(_WEIGHT[f.severity] for f in found)
    if any(f.severity >= Severity.CRITICAL for f in found) or points >= HIGH_POINTS:
        level = "high"
    elif points >= MEDIUM_POINTS:
        level = "medium"
    else:
        level = "low"
    by_rule = Counter(f.rule for f in found if f.severity > Severity.INFO)
    reasons = [f"{n} x {rule}" for rule, n in by_rule.most_common(6)]
    return level, reasons


def _facts(layer: Layer, r: ScanResult) -> list[tuple[str, str]]:
    """(minimum level, reason) pairs from facts that findings alone do not weigh."""
    s = r.stats
    facts: list[tuple[str, str]] = []
    kernels, asm = int(s.get("kernels", 0)), int(s.get("inline_asm", 0))
    if layer == Layer.EXTENSION and kernels:
        facts.append(("high" if kernels > 20 else "medium", f"{kernels} custom kernel(s) to port"))
    elif layer == Layer.LOW_LEVEL and asm:
        facts.append(("high" if asm >= 5 else "medium", f"{asm} inline assembly (PTX) statement(s)"))
    elif layer == Layer.LIBRARY:
        facts.extend(_library_facts(r))
    elif layer == Layer.OPS and r.deployment.scale in ("multi-node", "kubernetes"):
        facts.append(("medium", f"deployment scale: {r.deployment.scale}"))
    elif layer == Layer.BUSINESS and not nothing_to_port(r):
        missing = [k for k in ("tests", "benchmarks", "pinned_versions") if not r.baselines.get(k)]
        if missing:  # a verification gap: the port is harder to prove, not larger
            facts.append(("medium", "no baseline: " + ", ".join(missing)))
    return facts


def _library_facts(r: ScanResult) -> list[tuple[str, str]]:
    unsupported = [a.name for a in r.api_usage if a.support in ("unsupported", "removed")]
    libs = sorted({a.library for a in r.api_usage if a.library not in ("runtime", "driver", "unknown")})
    facts = []
    if unsupported:
        facts.append(("high", f"{len(unsupported)} CUDA API(s) without HIP support: {', '.join(unsupported[:5])}"))
    if libs:
        facts.append(("medium", "CUDA libraries used: " + ", ".join(libs)))
    return facts
