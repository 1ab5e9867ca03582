from __future__ import annotations

import pytest

from cuda2rocm.knowledge.compat import check
from cuda2rocm.results.compat import Query


def test_full_supported_combination():
    report = check(Query("MI300X", "6.4", "ubuntu-22.04", {"pytorch": "2.6"}))
    assert report.status == "supported" and report.release == "6.4.3"
    assert [v.status for v in report.verdicts] == ["supported"] * 3
    assert all(v.source for v in report.verdicts)
    assert report.recommendation is None


@pytest.mark.parametrize(
    ("query", "bad_pair"),
    [
        (Query("MI355X", "6.4"), "gpu MI355X"),  # gfx950 arrives in 7.0
        (Query("MI325X", "6.3"), "gpu MI325X"),  # gfx942 listed but MI325X first in 6.4
        (Query("H200", "6.4"), "gpu H200"),
        (Query("MI300X", "6.4", "ubuntu-20.04"), "os ubuntu-20.04"),
        (Query("MI300X", "7.2", frameworks={"pytorch": "2.1"}), "pytorch 2.1"),
        (Query(os="sles-15-sp4", rocm="7.0"), "os sles-15-sp4"),
    ],
)
def test_unsupported_pairs(query, bad_pair):
    report = check(query)
    assert report.status == "unsupported"
    assert any(v.pair.startswith(bad_pair) and v.status == "unsupported" for v in report.verdicts)


@pytest.mark.parametrize(
    "query",
    [Query("MI999X", "6.4"), Query("MI300X", "9.1"), Query("MI300X", "6.4", "plan9-4"), Query("MI300X", "6.4.9")],
)
def test_unknown_is_never_supported(query):
    report = check(query)
    assert report.status == "unknown"
    assert all(v.status != "supported" for v in report.verdicts if "unknown" in v.reason or "not in" in v.reason)


def test_partial_input_recommends_newest_supported():
    report = check(Query("MI300X"))
    rec = report.recommendation
    assert rec is not None and rec.rocm == "7.2.3" and rec.frameworks["pytorch"] == "2.9.1"
    older = check(Query(frameworks={"pytorch": "2.4"})).recommendation
    assert older is not None and older.rocm == "6.4.3"


def test_unsupported_with_rocm_recommends_a_release_that_works():
    rec = check(Query("MI355X", "6.4")).recommendation
    assert rec is not None and rec.rocm.startswith("7.")


def test_nvidia_gpu_gets_no_rocm_recommendation():
    report = check(Query("H200"))
    assert report.status == "unsupported" and report.recommendation is None


def test_gpu_os_footnotes_are_attached():
    assert any("MI300X" in n for n in check(Query("MI300X", "6.4", "debian-12")).notes)
