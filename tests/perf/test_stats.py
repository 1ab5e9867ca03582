from __future__ import annotations

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from cuda2rocm.perf import stats


@pytest.mark.parametrize("n1,n2", [(3, 4), (5, 5), (8, 8), (8, 30), (9, 9), (25, 40)])
@pytest.mark.parametrize("ties", [False, True])
def test_mann_whitney_matches_scipy(n1, n2, ties):
    rng = np.random.default_rng(n1 * 100 + n2)
    x, y = rng.normal(0, 1, n1), rng.normal(0.7, 1, n2)
    if ties:
        x, y = np.round(x), np.round(y)
    u, p = stats.mann_whitney_u(x, y)
    ref = scipy.stats.mannwhitneyu(x, y, alternative="two-sided")
    assert u == pytest.approx(ref.statistic)
    assert p == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 20), min_size=2, max_size=15), st.lists(st.integers(0, 20), min_size=2, max_size=15))
def test_mann_whitney_matches_scipy_on_any_integer_samples(x, y):
    if len(set(x + y)) == 1:
        return  # scipy returns p=1 with a warning-free NaN guard; all-equal data has no ordering
    u, p = stats.mann_whitney_u(x, y)
    ref = scipy.stats.mannwhitneyu(x, y, alternative="two-sided")
    assert u == pytest.approx(ref.statistic)
    assert p == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-12)


def test_mann_whitney_empty_side_is_nan():
    u, p = stats.mann_whitney_u([], [1.0, 2.0])
    assert np.isnan(u) and np.isnan(p)


def test_summary_against_numpy():
    data = [1.0, 2.0, 3.0, 4.0, 100.0, float("nan")]
    s = stats.summarize(data)
    clean = np.array(data[:-1])
    assert s.n == 5 and s.median == 3.0 and s.min == 1.0 and s.max == 100.0
    assert s.stdev == pytest.approx(clean.std(ddof=1))
    assert s.iqr == pytest.approx(np.percentile(clean, 75) - np.percentile(clean, 25))
    assert s.cv == pytest.approx(s.stdev / s.mean)


def test_bootstrap_ci_covers_the_true_ratio_and_is_deterministic():
    rng = np.random.default_rng(3)
    base, cand = rng.normal(100, 2, 40), rng.normal(80, 2, 40)
    lo, hi = stats.bootstrap_ratio_ci(base, cand)
    assert lo < 0.8 < hi and hi - lo < 0.05
    assert stats.bootstrap_ratio_ci(base, cand) == (lo, hi)


def test_rankdata_matches_scipy():
    values = np.array([3.0, 1.0, 3.0, 2.0, 3.0, 1.0])
    assert stats.rankdata(values).tolist() == scipy.stats.rankdata(values).tolist()
