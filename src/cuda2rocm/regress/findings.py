"""Turn comparison results into findings of the C2R-R rules (the engines decide, the rules document)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from cuda2rocm.model import Finding
from cuda2rocm.regress import rules
from cuda2rocm.results.regress import (
    DTYPE,
    FAIL,
    MISSING_BASE,
    MISSING_CAND,
    SHAPE,
    CompareResult,
    CurveReport,
    MetricReport,
    SmokeReport,
    TensorReport,
)

if TYPE_CHECKING:  # the repro module is imported by its callers (it needs torch)
    from cuda2rocm.regress.run import ReproResult


def compare_findings(result: CompareResult) -> list[Finding]:
    out = [rules.NOT_COMPARABLE.finding(result.cand, 0, 0, w) for w in result.warnings]
    out += [f for r in result.reports if (f := _tensor_finding(result.cand, r)) is not None]
    return out


def _tensor_finding(path: str, r: TensorReport) -> Finding | None:
    if r.status == FAIL:
        stats = r.stats
        rule = rules.NONFINITE if stats is not None and stats.nonfinite_mismatch else rules.OUT_OF_TOLERANCE
        return rule.finding(path, 0, 0, f"{r.name}: " + "; ".join(r.reasons) + f" ({r.policy} policy)")
    if r.status in (SHAPE, DTYPE):
        return rules.MISMATCH.finding(path, 0, 0, f"{r.name}: " + "; ".join(r.reasons))
    if r.status in (MISSING_BASE, MISSING_CAND):
        return rules.MISSING.finding(path, 0, 0, f"{r.name}: {r.status}")
    return None


def curve_findings(path: str, report: CurveReport) -> list[Finding]:
    """C2R-R301 when the curve leaves its band, C2R-R302 when the candidate does not converge like the base."""
    band = [r for r in report.reasons if "outside the band" in r]
    other = [r for r in report.reasons if r not in band]
    out = [] if report.band_ok else [rules.CURVE_BAND.finding(path, 0, 0, f"{report.tag}: " + "; ".join(band))]
    if not report.converged:
        out.append(rules.NO_CONVERGENCE.finding(path, 0, 0, f"{report.tag}: " + "; ".join(other)))
    return out


def metric_findings(path: str, reports: Iterable[MetricReport]) -> list[Finding]:
    """C2R-R303 for each metric outside its threshold (or missing on one side)."""
    return [rules.METRIC.finding(path, 0, 0, f"{m.name}: {m.base} -> {m.cand} ({m.reason})") for m in reports
            if not m.ok]


def repro_findings(path: str, seed: int, result: ReproResult) -> list[Finding]:
    """C2R-R304 when two runs with the same seed differ (the tensors that differ named, ten at most)."""
    if result.identical:
        return []
    names = ", ".join(result.differing[:10]) + (", ..." if len(result.differing) > 10 else "")
    return [rules.NOT_REPRODUCIBLE.finding(path, 0, 0, f"{names}: differ between two runs with seed {seed}")]


def smoke_findings(report: SmokeReport, path: str = "smoke") -> list[Finding]:
    """C2R-R2xx for what a smoke run saw go wrong: CPU fallbacks, missing ops, the math SDPA path on a GPU, broken
    autocast dtypes, abnormal inputs and a failed forward pass."""
    out = [rules.CPU_FALLBACK.finding(path, 0, 0, f"aten::{op} touched tensors off {report.device} ({n} calls)")
           for op, n in report.cpu_fallbacks]
    out += [rules.NOT_IMPLEMENTED.finding(path, 0, 0, f"{op} is not implemented here")
            for op in report.not_implemented]
    if report.sdpa_backends == ("math",) and not report.device.startswith("cpu"):
        out.append(rules.SDPA_MATH.finding(path, 0, 0, "scaled_dot_product_attention used the math path"))
    out += [rules.AMP_BROKEN.finding(path, 0, 0, f"{c.name}: {c.detail}") for c in report.amp if not c.ok]
    out += [rules.ABNORMAL_INPUT.finding(path, 0, 0, f"{c.name}: {c.detail}") for c in report.abnormal if not c.ok]
    if not report.forward.ok and not report.not_implemented:
        out.append(rules.ABNORMAL_INPUT.finding(path, 0, 0, f"forward pass failed: {report.forward.detail}"))
    return out
