from __future__ import annotations

import pytest

from cuda2rocm.perf import bandwidth


@pytest.mark.parametrize(
    ("op", "n", "factor"),
    [
        ("all_reduce", 2, 1.0), ("all_reduce", 4, 1.5), ("all_reduce", 8, 1.75),
        ("all_gather", 2, 0.5), ("all_gather", 8, 0.875), ("reduce_scatter", 4, 0.75),
        ("all_to_all", 8, 0.875), ("broadcast", 8, 1.0), ("sendrecv", 8, 1.0), ("all_reduce", 1, 0.0),
    ],
)
def test_bus_factors_are_nccl_tests_formulas(op, n, factor):
    assert bandwidth.bus_factor(op, n) == pytest.approx(factor)


def test_algbw_and_busbw_in_gb_per_s():
    # 1 GiB all-reduce in 3.25 ms on 2 ranks: the H200 pair's figure
    assert bandwidth.algbw_gbps(1 << 30, 3.25e-3) == pytest.approx(330.4, rel=1e-3)
    assert bandwidth.busbw_gbps("all_reduce", 1 << 30, 3.25e-3, 8) == pytest.approx(330.4 * 1.75, rel=1e-3)
    assert bandwidth.algbw_gbps(1024, 0.0) == 0.0


@pytest.mark.parametrize("bad", [("all_reduce", 0), ("allreduce", 2)])
def test_bad_factor_inputs(bad):
    with pytest.raises(ValueError):
        bandwidth.bus_factor(*bad)


@pytest.mark.parametrize(("text", "value"), [("8", 8), ("64K", 65536), ("1M", 1 << 20), ("1MB", 1 << 20),
                                             ("8GiB", 8 << 30), ("0.5k", 512)])
def test_parse_size(text, value):
    assert bandwidth.parse_size(text) == value


@pytest.mark.parametrize("bad", ["", "1X", "-1M", "M"])
def test_parse_size_rejects(bad):
    with pytest.raises(ValueError):
        bandwidth.parse_size(bad)


def test_size_sweep_like_nccl_tests():
    assert bandwidth.size_sweep(1 << 20, 8 << 30, 2)[-1] == 8 << 30
    assert len(bandwidth.size_sweep(1 << 20, 8 << 30, 2)) == 14
    assert bandwidth.size_sweep(8, 100, 4) == [8, 32]
    with pytest.raises(ValueError):
        bandwidth.size_sweep(100, 8, 2)


def test_format_size():
    assert [bandwidth.format_size(s) for s in (512, 1 << 20, 3 << 30, 1536)] == ["512B", "1M", "3G", "1.5K"]
