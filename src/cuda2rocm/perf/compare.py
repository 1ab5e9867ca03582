"""Baseline vs candidate, metric by metric: medians, spread, bootstrap CI, Mann-Whitney U, thresholds.

Verdict per metric:
- ``fail``: a threshold for the metric does not hold (the user's contract; significance is shown);
- ``regression`` / ``improvement``: no threshold, the change is significant (p < alpha) and larger than
  the tolerance in the bad / good direction;
- ``ok``: a threshold holds, or no significant change beyond the tolerance;
- ``missing``: the metric is on one side only (a threshold naming it then fails).
A threshold that matches no metric on either side is an error, never a silent pass.
Exit code: 1 if any metric is ``fail`` or ``regression``, else 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cuda2rocm.perf import stats, thresholds
from cuda2rocm.perf.metrics import Metric
from cuda2rocm.results.perf import MetricResult, Report


@dataclass(frozen=True)
class Policy:
    thresholds: tuple[thresholds.Threshold, ...] = ()
    alpha: float = 0.05
    tolerance: float = 0.05  # changes smaller than this fraction are never called regressions


def _verdict(direction: str, ratio: float, p: float, limit: thresholds.Threshold | None,
             base_med: float, cand_med: float, policy: Policy) -> str:
    if limit is not None:
        return "ok" if limit.holds(base_med, cand_med) else "fail"
    if math.isnan(ratio) or math.isnan(p) or p >= policy.alpha:
        return "ok"
    worse = ratio < 1 - policy.tolerance if direction == "higher" else ratio > 1 + policy.tolerance
    better = ratio > 1 + policy.tolerance if direction == "higher" else ratio < 1 - policy.tolerance
    return "regression" if worse else "improvement" if better else "ok"


def compare_metric(base: Metric, cand: Metric, policy: Policy) -> MetricResult:
    b, c = stats.summarize(base.samples), stats.summarize(cand.samples)
    ratio = c.median / b.median if b.n and c.n and b.median else float("nan")
    ci = stats.bootstrap_ratio_ci(base.samples, cand.samples)
    _, p = stats.mann_whitney_u(base.samples, cand.samples)
    limit = thresholds.find(policy.thresholds, base.name)
    direction = base.direction()
    verdict = _verdict(direction, ratio, p, limit, b.median, c.median, policy)
    note = "" if limit is None or math.isnan(p) or p < policy.alpha else "difference not significant"
    if min(b.n, c.n) < 3:
        note = "too few samples for a significance test" if verdict != "fail" else note
    return MetricResult(base.name, direction, b, c, ratio, ci, p, str(limit) if limit else "", verdict, note)


def _missing(name: str, base: Metric | None, cand: Metric | None, policy: Policy) -> MetricResult:
    present = base or cand
    assert present is not None
    empty = stats.summarize([])
    side = stats.summarize(present.samples)
    limit = thresholds.find(policy.thresholds, name)
    nan = float("nan")
    return MetricResult(
        name, present.direction(), side if base else empty, side if cand else empty, nan, (nan, nan), nan,
        str(limit) if limit else "", "fail" if limit else "missing",
        "only in baseline" if base else "only in candidate",
    )


def compare(base: dict[str, Metric], cand: dict[str, Metric], policy: Policy | None = None) -> Report:
    """Raises :class:`thresholds.UnmatchedThreshold` (a ``ValueError``) when a threshold matches no metric."""
    policy = policy or Policy()
    thresholds.check_matched(policy.thresholds, set(base) | set(cand))
    results = []
    for name in sorted(set(base) | set(cand)):
        if name in base and name in cand:
            results.append(compare_metric(base[name], cand[name], policy))
        else:
            results.append(_missing(name, base.get(name), cand.get(name), policy))
    return Report(tuple(results))


def with_env(report: Report, base_env: dict[str, Any], cand_env: dict[str, Any]) -> Report:
    from cuda2rocm.perf.fingerprint import differences

    return Report(report.results, tuple(differences(base_env, cand_env)), report.costs)


def policy_from(texts: Sequence[str], alpha: float = 0.05, tolerance: float = 0.05) -> Policy:
    return Policy(tuple(thresholds.parse_all(texts)), alpha, tolerance)
