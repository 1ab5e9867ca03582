"""Statistics for comparing two sets of samples: summaries, a bootstrap CI and Mann-Whitney U.

Mann-Whitney U follows the textbook definitions (average ranks for ties, tie-corrected normal
approximation with continuity correction; exact null distribution for small samples without ties), and
chooses between them as scipy does, so tests check our p-values against ``scipy.stats.mannwhitneyu``.
Only numpy and the standard library are used at run time.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from cuda2rocm.results.perf import Summary


def finite(values: Sequence[float]) -> np.ndarray:
    arr = np.asarray(values, dtype=float)
    return arr[np.isfinite(arr)]


def summarize(values: Sequence[float]) -> Summary:
    arr = finite(values)
    if arr.size == 0:
        nan = float("nan")
        return Summary(0, nan, nan, nan, nan, nan, nan)
    q1, med, q3 = np.percentile(arr, [25, 50, 75])
    stdev = float(arr.std(ddof=1)) if arr.size > 1 else 0.0
    return Summary(int(arr.size), float(med), float(arr.mean()), stdev, float(q3 - q1), float(arr.min()),
                   float(arr.max()))


def percentile(values: Sequence[float], q: float) -> float:
    arr = finite(values)
    return float(np.percentile(arr, q)) if arr.size else float("nan")


def bootstrap_ratio_ci(
    base: Sequence[float], cand: Sequence[float], *, confidence: float = 0.95, resamples: int = 2000, seed: int = 0
) -> tuple[float, float]:
    """Percentile-bootstrap CI of median(cand) / median(base), resampling each side independently."""
    b, c = finite(base), finite(cand)
    if b.size == 0 or c.size == 0:
        return (float("nan"), float("nan"))
    rng = np.random.default_rng(seed)
    mb = np.median(rng.choice(b, size=(resamples, b.size), replace=True), axis=1)
    mc = np.median(rng.choice(c, size=(resamples, c.size), replace=True), axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = mc / mb
    ratios = ratios[np.isfinite(ratios)]
    if ratios.size == 0:
        return (float("nan"), float("nan"))
    alpha = (1 - confidence) / 2
    lo, hi = np.quantile(ratios, [alpha, 1 - alpha])
    return (float(lo), float(hi))


def rankdata(values: np.ndarray) -> np.ndarray:
    """Ranks 1..n with ties given their average rank."""
    order = np.argsort(values, kind="mergesort")
    ranks = np.empty(values.size, dtype=float)
    sorted_vals = values[order]
    i = 0
    while i < values.size:
        j = i
        while j + 1 < values.size and sorted_vals[j + 1] == sorted_vals[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


#: beyond this many samples on the larger side the exact distribution is too costly; scipy would still use
#: it when the smaller side has <= 8 samples, we use the normal approximation (documented difference)
_EXACT_MAX = 200


@lru_cache(maxsize=256)
def _u_counts(n1: int, n2: int) -> tuple[int, ...]:
    """Number of orderings giving each U = 0..n1*n2 (the exact null distribution, unnormalised)."""
    if n1 == 0 or n2 == 0:
        return (1,)
    a, b = _u_counts(n1 - 1, n2), _u_counts(n1, n2 - 1)
    out = [0] * (n1 * n2 + 1)
    for u, count in enumerate(a):  # the largest value is from x: it beats all n2 values of y
        out[u + n2] += count
    for u, count in enumerate(b):  # the largest value is from y
        out[u] += count
    return tuple(out)


def _exact_sf(u: int, n1: int, n2: int) -> float:
    counts = _u_counts(n1, n2)
    return sum(counts[u:]) / math.comb(n1 + n2, n1)


def mann_whitney_u(x: Sequence[float], y: Sequence[float]) -> tuple[float, float]:
    """Two-sided Mann-Whitney U test: (U of x, p-value). NaN p-value when a side is empty."""
    a, b = finite(x), finite(y)
    n1, n2 = a.size, b.size
    if n1 == 0 or n2 == 0:
        return (float("nan"), float("nan"))
    ranks = rankdata(np.concatenate([a, b]))
    u1 = float(ranks[:n1].sum() - n1 * (n1 + 1) / 2)
    u = max(u1, n1 * n2 - u1)
    _, tie_counts = np.unique(np.concatenate([a, b]), return_counts=True)
    ties = bool((tie_counts > 1).any())
    if (n1 <= 8 or n2 <= 8) and max(n1, n2) <= _EXACT_MAX and not ties:
        p = 2 * _exact_sf(round(u), n1, n2)
    else:
        n = n1 + n2
        tie_term = float((tie_counts.astype(float) ** 3 - tie_counts).sum())
        s = math.sqrt(n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1))))
        p = math.erfc((u - n1 * n2 / 2 - 0.5) / s / math.sqrt(2)) if s > 0 else 1.0
    return (u1, min(1.0, p))
