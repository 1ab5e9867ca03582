"""Compare two tensor sets (BASE = reference, CAND = candidate) under a tolerance policy.

Tensors are visited in the baseline's order (a capture's execution order), one at a time, so memory
stays near the largest tensor per side. The first tensor that does not pass is the first divergence.
"""

from __future__ import annotations

from pathlib import Path

from cuda2rocm.regress.policy import Policy, default_policy
from cuda2rocm.regress.sources import Source, open_source
from cuda2rocm.regress.stats import tensor_stats
from cuda2rocm.results.regress import (
    DTYPE,
    FAIL,
    MISSING_BASE,
    MISSING_CAND,
    PASS,
    SHAPE,
    SKIPPED,
    CompareResult,
    Entry,
    TensorReport,
    TensorStats,
    Tolerance,
)


def compare(base: str | Path, cand: str | Path, policy: Policy | None = None) -> CompareResult:
    """Open both sides (raising RegressInputError on unreadable input) and compare every tensor."""
    b, c = open_source(base), open_source(cand)
    return compare_sources(b, c, policy or default_policy())


def compare_sources(base: Source, cand: Source, policy: Policy) -> CompareResult:
    cand_entries = {e.name: e for e in cand.entries}
    reports: list[TensorReport] = []
    nbytes = 0
    for entry in base.entries:
        other = cand_entries.pop(entry.name, None)
        report, size = _compare_entry(base, cand, entry, other, policy)
        reports.append(report)
        nbytes += size
    reports += [TensorReport(e.name, MISSING_BASE, e.dtype, e.shape) for e in cand.entries if e.name in cand_entries]
    return CompareResult(base.path, cand.path, tuple(reports), _warnings(base, cand), nbytes)


def _compare_entry(
    base: Source, cand: Source, entry: Entry, other: Entry | None, policy: Policy
) -> tuple[TensorReport, int]:
    if other is None:
        return TensorReport(entry.name, MISSING_CAND, entry.dtype, entry.shape), 0
    tol = policy.for_tensor(entry.name, entry.dtype)
    cls = policy.class_for(entry.dtype, entry.name)
    if tol is None:
        return TensorReport(entry.name, SKIPPED, entry.dtype, entry.shape, cls), 0
    if other.dtype != entry.dtype:
        why = f"dtype {entry.dtype} in base, {other.dtype} in candidate"
        return TensorReport(entry.name, DTYPE, entry.dtype, entry.shape, tol.name, tol, None, (why,)), 0
    if other.shape != entry.shape:
        why = f"shape {list(entry.shape)} in base, {list(other.shape)} in candidate"
        return TensorReport(entry.name, SHAPE, entry.dtype, entry.shape, tol.name, tol, None, (why,)), 0
    a, b = cand.load(entry.name), base.load(entry.name)
    stats = tensor_stats(b, a, entry.dtype, tol.atol, tol.rtol)
    reasons = judge(stats, tol)
    status = FAIL if reasons else PASS
    report = TensorReport(entry.name, status, entry.dtype, entry.shape, tol.name, tol, stats, reasons)
    return report, a.nbytes + b.nbytes


def judge(stats: TensorStats, tol: Tolerance) -> tuple[str, ...]:
    """Why a tensor fails its tolerance (empty when it passes)."""
    reasons = []
    if stats.nonfinite_mismatch:
        reasons.append(f"{stats.nonfinite_mismatch} NaN/Inf positions differ "
                       f"(NaN {stats.nan_base}->{stats.nan_cand}, Inf {stats.inf_base}->{stats.inf_cand})")
    if stats.mismatch_fraction > tol.max_mismatch_fraction:
        reasons.append(f"{stats.mismatches} of {stats.count} elements ({stats.mismatch_fraction:.3%}) outside "
                       f"atol={tol.atol:g} rtol={tol.rtol:g} (allowed {tol.max_mismatch_fraction:.3%})")
    if not stats.rel_l2 <= tol.max_rel_l2:
        reasons.append(f"relative L2 error {stats.rel_l2:.3g} > {tol.max_rel_l2:g}")
    if not stats.cosine >= tol.min_cosine:
        reasons.append(f"cosine similarity {stats.cosine:.9g} < {tol.min_cosine:g}")
    if tol.max_ulp is not None and stats.max_ulp is not None and stats.max_ulp > tol.max_ulp:
        reasons.append(f"max ULP distance {stats.max_ulp:.0f} > {tol.max_ulp}")
    return tuple(reasons)


def _warnings(base: Source, cand: Source) -> tuple[str, ...]:
    mb, mc = base.manifest, cand.manifest
    if mb is None or mc is None:
        return ()
    out = []
    if mb.inputs_sha256 and mc.inputs_sha256 and mb.inputs_sha256 != mc.inputs_sha256:
        out.append(f"inputs differ (sha256 {mb.inputs_sha256[:12]} vs {mc.inputs_sha256[:12]}): "
                   "the captures are not comparable")
    if mb.seed != mc.seed:
        out.append(f"seeds differ ({mb.seed} vs {mc.seed})")
    if mb.tf32 != mc.tf32:
        out.append(f"TF32 differs (base {mb.tf32}, candidate {mc.tf32}); consider --float32 tf32")
    return tuple(out)
