"""Turn comparison results into findings of the C2R-R rules (the engines decide, the rules document)."""

from __future__ import annotations

from cuda2rocm.model import Finding
from cuda2rocm.regress import rules
from cuda2rocm.regress.compare import DTYPE, FAIL, MISSING_BASE, MISSING_CAND, SHAPE, CompareResult, TensorReport


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
