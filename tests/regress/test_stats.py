from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuda2rocm.regress.compare import judge
from cuda2rocm.regress.policy import default_policy
from cuda2rocm.regress.stats import tensor_stats

from .helpers import decoded, neighbours, storage

POLICY = default_policy()
CLASS_DTYPE = [("fp64", "F64"), ("fp32", "F32"), ("tf32", "F32"), ("fp16", "F16"), ("bf16", "BF16"),
               ("fp8_e4m3", "F8_E4M3"), ("fp8_e5m2", "F8_E5M2"), ("int8", "I8"), ("int4", "I8"),
               ("exact", "I32")]
OFF = {"max_mismatch_fraction": 1.0, "max_rel_l2": math.inf, "min_cosine": -1.0}


def _tol(cls, **overrides):
    return POLICY.classes[cls].with_overrides({**OFF, **overrides})


def _run(base, cand, dtype, tol):
    stats = tensor_stats(base, cand, dtype, tol.atol, tol.rtol)
    return stats, judge(stats, tol)


@pytest.mark.parametrize(("cls", "dtype"), CLASS_DTYPE)
@pytest.mark.parametrize("side", ["inside", "outside"])
def test_element_tolerance_edge(cls, dtype, side):
    tol = _tol(cls, max_mismatch_fraction=0.0)
    b = 8.0 if dtype in ("I8", "I32") else 1.0
    inside, outside = neighbours(b, tol.atol, tol.rtol, dtype)
    base = storage([b] * 64, dtype)
    cand = storage([b] * 63 + [inside if side == "inside" else outside], dtype)
    stats, reasons = _run(base, cand, dtype, tol)
    assert stats.mismatches == (0 if side == "inside" else 1)
    assert (not reasons) == (side == "inside"), reasons


@pytest.mark.parametrize(("cls", "dtype"), CLASS_DTYPE)
@pytest.mark.parametrize("extra", [0, 1])
def test_mismatch_fraction_edge(cls, dtype, extra):
    tol = POLICY.classes[cls].with_overrides({"max_rel_l2": math.inf, "min_cosine": -1.0})
    n = 20000
    k = math.floor(tol.max_mismatch_fraction * n) + extra
    b = 4.0
    far = b * 2
    base = storage([b] * n, dtype)
    cand = storage([far] * k + [b] * (n - k), dtype)
    stats, reasons = _run(base, cand, dtype, tol)
    assert stats.mismatches == k
    assert (not reasons) == (extra == 0), reasons


def _boundary(metric, limit, n, better):
    """Largest m whose exact metric is still acceptable (metric grows worse with m)."""
    m = 0
    while m < n and better(metric(m + 1), limit):
        m += 1
    return m


@pytest.mark.parametrize(("cls", "dtype"), [c for c in CLASS_DTYPE if c[0] not in ("exact",)])
@pytest.mark.parametrize("which", ["rel_l2", "cosine"])
def test_aggregate_edges(cls, dtype, which):
    tol = POLICY.classes[cls]
    n = 4000
    if dtype == "I8":
        bv, hi = 10.0, (14.0 if cls == "int4" else 11.0)
    else:
        bv = 1.0
        hi = float(decoded(storage([1.0 + _delta(tol, which, n, dtype)], dtype), dtype)[0])
    base_vals = np.full(n, bv)

    def cand_vals(m):
        return np.concatenate([np.full(m, hi), np.full(n - m, bv)])

    if which == "rel_l2":
        def metric(m):
            return float(np.linalg.norm(cand_vals(m) - base_vals) / np.linalg.norm(base_vals))
        m = _boundary(metric, tol.max_rel_l2, n, lambda v, lim: v <= lim)
        overrides = {"max_rel_l2": tol.max_rel_l2}
    else:
        def metric(m):
            c = cand_vals(m)
            return float(c @ base_vals / (np.linalg.norm(c) * np.linalg.norm(base_vals)))
        m = _boundary(metric, tol.min_cosine, n, lambda v, lim: v >= lim)
        overrides = {"min_cosine": tol.min_cosine}
    assert 0 < m < n, "test construction must land inside the range"
    for mm, expect_pass in ((m, True), (m + 1, False)):
        stats, reasons = _run(storage(base_vals, dtype), storage(cand_vals(mm), dtype), dtype,
                              _tol(cls, **overrides))
        assert (not reasons) == expect_pass, (mm, stats, reasons)


def _delta(tol, which, n, dtype):
    """A perturbation so that a few hundred elements cross the aggregate limit (exactly representable)."""
    target = tol.max_rel_l2 if which == "rel_l2" else math.sqrt(2 * (1 - tol.min_cosine))
    k = math.ceil(math.log2(target * math.sqrt(n) / math.sqrt(n / 8)))
    return 2.0 ** k


def test_nan_inf_same_positions_pass_and_moved_fail():
    base = storage([1.0, math.nan, math.inf, -math.inf, 2.0], "F32")
    same = storage([1.0, math.nan, math.inf, -math.inf, 2.0], "F32")
    moved = storage([math.nan, 1.0, -math.inf, -math.inf, 2.0], "F32")
    tol = POLICY.classes["fp32"]
    stats, reasons = _run(base, same, "F32", tol)
    assert not reasons and (stats.nan_base, stats.inf_base) == (1, 2)
    stats, reasons = _run(base, moved, "F32", tol)
    assert stats.nonfinite_mismatch == 3 and any("NaN/Inf" in r for r in reasons)
    assert (stats.nan_cand, stats.inf_cand) == (1, 2)


def test_nan_in_bf16_and_fp8_decoded():
    for dtype in ("BF16", "F8_E4M3", "F8_E5M2"):
        stats, reasons = _run(storage([1.0, 2.0], dtype), storage([1.0, math.nan], dtype), dtype,
                              POLICY.classes["bf16"])
        assert stats.nan_cand == 1 and reasons


@pytest.mark.parametrize("dtype", ["F64", "F32", "F16", "BF16", "F8_E4M3", "F8_E5M2"])
def test_decode_matches_torch(dtype):
    import torch

    from .helpers import TORCH

    raw = torch.randn(1000, dtype=torch.float64).mul(3)
    arr = storage(raw.numpy(), dtype)
    expect = raw.to(TORCH[dtype]).to(torch.float64).numpy()
    np.testing.assert_array_equal(decoded(arr, dtype), expect)


def test_ulp_adjacent_and_signed_zero():
    a = np.array([1.0, 0.0, -1.0, 3.0], np.float32)
    b = np.nextafter(a, np.float32(np.inf))
    stats = tensor_stats(a, b, "F32", 0, 0)
    assert stats.max_ulp == 1.0
    zero = tensor_stats(np.array([0.0], np.float32), np.array([-0.0], np.float32), "F32", 0, 0)
    assert zero.max_ulp == 0.0 and zero.max_abs == 0.0


def _ordered(bits, width):
    m = (1 << (width - 1))
    return [(-(x & (m - 1)) if x < 0 else x) for x in bits]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-(2**15), 2**15 - 1), min_size=2, max_size=40))
def test_ulp_matches_bruteforce_f16(bits):
    arr = np.array(bits, dtype=np.int16)
    a, b = arr[: len(arr) // 2], arr[len(arr) // 2 : 2 * (len(arr) // 2)]
    fa, fb = a.view(np.float16), b.view(np.float16)
    finite = np.isfinite(fa) & np.isfinite(fb)
    oa, ob = _ordered(a[finite].tolist(), 16), _ordered(b[finite].tolist(), 16)
    expect = max((abs(x - y) for x, y in zip(oa, ob, strict=True)), default=0)
    stats = tensor_stats(a.view(np.float16), b.view(np.float16), "F16", 0, 0)
    assert stats.max_ulp == expect


def test_rel_l2_and_cosine_match_float64_reference():
    rng = np.random.default_rng(1)
    b = rng.standard_normal(300_000).astype(np.float32)
    a = (b + 1e-3 * rng.standard_normal(b.size)).astype(np.float32)
    stats = tensor_stats(b, a, "F32", 1e-5, 1e-4)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    assert stats.rel_l2 == pytest.approx(np.linalg.norm(a64 - b64) / np.linalg.norm(b64), rel=1e-5)
    assert stats.cosine == pytest.approx(a64 @ b64 / np.linalg.norm(a64) / np.linalg.norm(b64), abs=1e-6)
    assert stats.max_abs == pytest.approx(np.abs(a64 - b64).max())
    assert stats.worst_index == int(np.abs(a64 - b64).argmax())
    assert stats.count == b.size


def test_zero_tensors_and_empty():
    z = np.zeros(10, np.float32)
    stats = tensor_stats(z, z, "F32", 0, 0)
    assert stats.cosine == 1.0 and stats.rel_l2 == 0.0
    empty = tensor_stats(np.zeros(0, np.float32), np.zeros(0, np.float32), "F32", 0, 0)
    assert empty.count == 0 and not judge(empty, POLICY.classes["fp32"])


def test_tolerance_replace_is_frozen():
    tol = POLICY.classes["fp32"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        tol.atol = 1.0  # type: ignore[misc]


def test_threaded_chunks_merge_to_the_single_thread_result(monkeypatch):
    from cuda2rocm.regress import stats as stats_mod

    rng = np.random.default_rng(5)
    b = rng.standard_normal(40 * stats_mod.CHUNK + 123).astype(np.float32)
    a = (b + 1e-4 * rng.standard_normal(b.size)).astype(np.float32)
    a[[7, 5 * stats_mod.CHUNK + 1]] = np.nan
    b[[9 * stats_mod.CHUNK]] = np.inf
    a[-1] = -a[-1]
    results = []
    for workers in (1, 2, 3):
        monkeypatch.setattr(stats_mod, "WORKERS", workers)
        results.append(tensor_stats(b, a, "F32", 1e-5, 1e-4))
    one = results[0]
    for other in results[1:]:
        assert other.mismatches == one.mismatches and other.worst_index == one.worst_index
        assert other.max_ulp == one.max_ulp and other.nonfinite_mismatch == one.nonfinite_mismatch == 3
        assert other.rel_l2 == pytest.approx(one.rel_l2, rel=1e-9)
        assert other.cosine == pytest.approx(one.cosine, abs=1e-12)


@pytest.mark.parametrize("scale_exp", [-44, -38, -20, 0, 30])
def test_ulp_fast_and_exact_paths_match_bruteforce_near_zero(scale_exp):
    rng = np.random.default_rng(scale_exp + 100)
    b = (rng.standard_normal(5000) * 10.0**scale_exp).astype(np.float32)
    a = (b * (1 + rng.standard_normal(b.size) * 1e-3)).astype(np.float32)
    a[rng.integers(0, b.size, 7)] *= -1
    a[:3], b[:3] = 0.0, -0.0
    ia, ib = a.view(np.int32).astype(np.int64), b.view(np.int32).astype(np.int64)

    def key(i):
        return np.where(i < 0, -(i & 0x7FFFFFFF), i)

    assert tensor_stats(b, a, "F32", 0, 0).max_ulp == np.abs(key(ia) - key(ib)).max()
