from __future__ import annotations

import numpy as np
import pytest

from cuda2rocm.perf import compare, cost, thresholds
from cuda2rocm.perf.metrics import Metric, from_records, infer_direction


def _m(name, values, better=""):
    return {name: Metric(name, [float(v) for v in values], better=better)}


RNG = np.random.default_rng(7)
BASE_TPS = RNG.normal(1000, 10, 20)


@pytest.mark.parametrize(
    ("cand", "verdict"),
    [
        (RNG.normal(700, 10, 20), "regression"),  # clear regression: 30% fewer tokens/s
        (RNG.normal(1300, 10, 20), "improvement"),  # clear improvement
        (RNG.normal(1000, 10, 20), "ok"),  # noise only
        (RNG.normal(990, 10, 20), "ok"),  # significant maybe, but under the 5% tolerance
    ],
)
def test_verdicts_on_synthetic_throughput(cand, verdict):
    report = compare.compare(_m("tokens_per_s", BASE_TPS), _m("tokens_per_s", cand))
    assert report.results[0].direction == "higher"
    assert report.results[0].verdict == verdict
    assert report.exit_code == (1 if verdict == "regression" else 0)


def test_latency_direction_is_lower_is_better():
    base, slower = RNG.normal(0.100, 0.002, 15), RNG.normal(0.130, 0.002, 15)
    report = compare.compare(_m("p99_latency_s", base), _m("p99_latency_s", slower))
    assert report.results[0].verdict == "regression"
    assert compare.compare(_m("p99_latency_s", slower), _m("p99_latency_s", base)).results[0].verdict == "improvement"


@pytest.mark.parametrize(
    ("rule", "ratio", "holds"),
    [("tokens_per_s>=0.9x", 0.91, True), ("tokens_per_s>=0.9x", 0.89, False), ("p99<=1.1x", 1.09, True),
     ("p99 <= 1.1x", 1.2, False), ("mem_gb<=70", 0.7, True), ("mem_gb<70", 0.7, False), ("mem_gb>69", 0.7, True)],
)
def test_thresholds(rule, ratio, holds):
    t = thresholds.parse(rule)
    assert t.holds(100.0, 100.0 * ratio) is holds


@pytest.mark.parametrize("bad", ["tokens_per_s", ">=0.9x", "a >= b", "x == 1"])
def test_bad_thresholds_are_rejected(bad):
    with pytest.raises(ValueError):
        thresholds.parse(bad)


def test_threshold_overrides_tolerance_and_patterns_match():
    policy = compare.policy_from(["*busbw*>=0.95x"])
    base = _m("comm/all_reduce/1M/busbw_gbps", RNG.normal(50, 0.5, 7))
    cand = _m("comm/all_reduce/1M/busbw_gbps", RNG.normal(46, 0.5, 7))  # 8% lower
    result = compare.compare(base, cand, policy).results[0]
    assert result.threshold == "*busbw* >= 0.95x" and result.verdict == "fail"


def test_missing_metrics():
    report = compare.compare(_m("a_s", [1, 2, 3]), _m("b_s", [1, 2, 3]), compare.policy_from(["b_s<=1.1x"]))
    verdicts = {r.name: r.verdict for r in report.results}
    assert verdicts == {"a_s": "missing", "b_s": "fail"}


def test_direction_inference():
    assert infer_direction("tokens_per_s") == "higher"
    assert infer_direction("busbw_gbps") == "higher"
    assert infer_direction("step_time_ms") == "lower"
    assert infer_direction("ttft_p99_s") == "lower"


def test_records_to_metrics_reports_bad_records():
    table, problems = from_records([{"metric": "x_s", "values": [1, 2, float("nan")]}, {"metric": "y_s"},
                                    {"foo": 1}])
    assert table["x_s"].samples == [1.0, 2.0]
    assert len(problems) == 2


def test_cost_per_task():
    # 30 s per task on 8 GPUs at 2.00 per GPU-hour
    assert cost.per_task_from_seconds(30, 2.0, 8) == pytest.approx(30 / 3600 * 8 * 2.0)
    assert cost.per_task(4.0, "higher", 3.6, 1) == pytest.approx(0.00025)
    with pytest.raises(ValueError):
        cost.per_task_from_rate(0, 1.0)


@pytest.mark.parametrize(
    ("pattern", "metric", "matches"),
    [("busbw_gbps", "comm/all_reduce/float32/in/events/1048576/busbw_gbps", True),
     ("1048576/busbw_gbps", "comm/all_reduce/float32/in/events/1048576/busbw_gbps", True),
     ("events/*/busbw_gbps", "comm/all_reduce/float32/in/events/1048576/busbw_gbps", True),
     ("comm/*", "comm/all_reduce/float32/in/events/1048576/busbw_gbps", True),
     ("busbw", "comm/all_reduce/float32/in/events/1048576/busbw_gbps", False),
     ("all_reduce", "comm/all_reduce/float32/in/events/1048576/busbw_gbps", False),
     ("gbps", "comm/all_reduce/busbw_gbps", False),
     ("tokens_per_s", "tokens_per_s", True)],
)
def test_patterns_match_whole_names_or_trailing_path_parts(pattern, metric, matches):
    assert thresholds.parse(f"{pattern}>=0.9x").matches(metric) is matches


def test_a_threshold_that_matches_no_metric_is_an_error():
    base = _m("comm/all_reduce/1M/busbw_gbps", RNG.normal(50, 0.5, 7))
    cand = _m("comm/all_reduce/1M/busbw_gbps", RNG.normal(33, 0.5, 7))  # 0.66x
    with pytest.raises(thresholds.UnmatchedThreshold, match=r"'nonexistent <= 1\.1x' matches no metric"):
        compare.compare(base, cand, compare.policy_from(["busbw_gbps>=0.95x", "nonexistent<=1.1x"]))
    # the suffix form gates: 0.66x fails it
    result = compare.compare(base, cand, compare.policy_from(["busbw_gbps>=0.95x"])).results[0]
    assert result.threshold == "busbw_gbps >= 0.95x" and result.verdict == "fail"
