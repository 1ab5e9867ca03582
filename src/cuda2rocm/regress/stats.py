"""Per-tensor error statistics, accumulated chunk by chunk so memory stays at one chunk of scratch.

Definitions (over positions where both sides are finite; ``b`` is the baseline, ``a`` the candidate):
  max_abs   max |a - b|                 max_rel  max |a - b| / max(|b|, tiny)
  max_ulp   max distance in units in the last place of the stored dtype (exact, on the bit patterns;
            +0 and -0 are 0 apart); for integers the absolute difference
  rel_l2    ||a - b|| / ||b||           cosine   <a, b> / (||a|| ||b||), 1.0 when both are all zeros
  mismatch  fraction of elements with |a - b| > atol + rtol * |b|, plus every non-finite disagreement
"""

from __future__ import annotations

import math
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from cuda2rocm.regress.dtypes import DTYPES, Array, signed_bits, values
from cuda2rocm.results.regress import TensorStats

CHUNK = 1 << 15  # elements: base, candidate and scratch chunks stay in the L2 cache
WORKERS = min(8, os.cpu_count() or 1)


class _Accumulator:
    def __init__(self, atol: float, rtol: float, tiny: float) -> None:
        self.atol, self.rtol, self.tiny = atol, rtol, tiny
        self.count = self.mismatches = self.nonfinite_mismatch = 0
        self.nan = [0, 0]
        self.inf = [0, 0]
        self.max_abs = self.max_rel = 0.0
        self.max_ulp: float = 0.0
        self.worst = -1
        self._buf: tuple[Array, Array, Array] | None = None
        self._ibuf: Array | None = None
        self._ubuf: Array | None = None
        self.dd = self.bb = self.aa = 0.0

    def add(self, a: Array, b: Array, ia: Array | None, ib: Array | None, offset: int) -> None:
        aa, bb = float(np.dot(a, a)), float(np.dot(b, b))
        if math.isfinite(aa) and math.isfinite(bb):
            self.count += a.size
            self.aa, self.bb = self.aa + aa, self.bb + bb
            self._finite(a, b, ia, ib, offset)
        else:
            self._mixed(a, b, ia, ib, offset)

    def _scratch(self, n: int, dtype: np.dtype[Any]) -> tuple[Array, Array, Array]:
        if self._buf is None or self._buf[0].dtype != dtype or self._buf[0].size < n:
            self._buf = (np.empty(n, dtype), np.empty(n, dtype), np.empty(n, np.bool_))
        return self._buf[0][:n], self._buf[1][:n], self._buf[2][:n]

    def _finite(self, a: Array, b: Array, ia: Array | None, ib: Array | None, offset: int) -> None:
        """All-finite chunk: every metric with in-place ufuncs on cache-sized scratch buffers."""
        d, t, mask = self._scratch(a.size, a.dtype)
        np.subtract(a, b, out=d)
        self.dd += float(np.dot(d, d))
        np.abs(d, out=d)
        i = int(d.argmax())
        if d[i] > self.max_abs or self.worst < 0:
            self.max_abs, self.worst = float(d[i]), offset + i
        np.abs(b, out=t)
        np.maximum(t, self.tiny, out=t)  # the floor only matters for |b| < tiny, far below any atol
        u = self._third(a.size, a.dtype)
        np.multiply(t, self.rtol, out=u)
        np.add(u, self.atol, out=u)  # in place: temporaries would cost more than all other passes together
        np.greater(d, u, out=mask)
        self.mismatches += int(np.count_nonzero(mask))
        rel = float(np.divide(d, t, out=t).max())
        self.max_rel = max(self.max_rel, rel)
        if ia is not None and ib is not None:
            fast = _same_sign_ulp(ia, ib, self._ints(ia)) if rel < 1.0 else None
            ulp = fast if fast is not None else _max_ulp(ia, ib, self._ints(ia))
            self.max_ulp = max(self.max_ulp, ulp)

    def _third(self, n: int, dtype: np.dtype[Any]) -> Array:
        if self._ubuf is None or self._ubuf.dtype != dtype or self._ubuf.size < n:
            self._ubuf = np.empty(n, dtype)
        return self._ubuf[:n]

    def _ints(self, ia: Array) -> Array:
        if self._ibuf is None or self._ibuf.dtype != ia.dtype or self._ibuf.size < ia.size:
            self._ibuf = np.empty(ia.size, ia.dtype)
        return self._ibuf[: ia.size]

    def _mixed(self, a: Array, b: Array, ia: Array | None, ib: Array | None, offset: int) -> None:
        fa, fb = np.isfinite(a), np.isfinite(b)
        nan_a, nan_b = np.isnan(a), np.isnan(b)
        self.nan[0] += int(np.count_nonzero(nan_b))
        self.nan[1] += int(np.count_nonzero(nan_a))
        self.inf[0] += b.size - int(np.count_nonzero(fb | nan_b))
        self.inf[1] += a.size - int(np.count_nonzero(fa | nan_a))
        both = fa & fb
        disagree = int(np.count_nonzero(~both & ~((a == b) | (nan_a & nan_b))))
        self.nonfinite_mismatch += disagree
        self.mismatches += disagree
        self.count += a.size
        keep = np.flatnonzero(both)
        if keep.size:
            sub = _Accumulator(self.atol, self.rtol, self.tiny)
            sub.add(a[keep].astype(np.float64), b[keep].astype(np.float64), _take(ia, keep), _take(ib, keep), 0)
            self._merge(sub, keep, offset)

    def _merge(self, sub: _Accumulator, keep: Array, offset: int) -> None:
        """Fold in an accumulator that saw ``chunk[keep]`` (the finite positions of a chunk)."""
        if sub.worst >= 0:
            sub.worst = offset + int(keep[sub.worst])
        sub.count = sub.nonfinite_mismatch = 0
        sub.nan, sub.inf = [0, 0], [0, 0]
        self.merge(sub)

    def merge(self, other: _Accumulator) -> None:
        """Fold in an accumulator that covered other elements of the same tensor (absolute indices)."""
        self.count += other.count
        self.mismatches += other.mismatches
        self.nonfinite_mismatch += other.nonfinite_mismatch
        self.nan = [x + y for x, y in zip(self.nan, other.nan, strict=True)]
        self.inf = [x + y for x, y in zip(self.inf, other.inf, strict=True)]
        if other.worst >= 0 and (other.max_abs > self.max_abs or self.worst < 0):
            self.max_abs, self.worst = other.max_abs, other.worst
        self.max_rel = max(self.max_rel, other.max_rel)
        self.max_ulp = max(self.max_ulp, other.max_ulp)
        self.dd += other.dd
        self.aa, self.bb = self.aa + other.aa, self.bb + other.bb

    def result(self, with_ulp: bool) -> TensorStats:
        return TensorStats(
            count=self.count, max_abs=self.max_abs, max_rel=self.max_rel,
            max_ulp=self.max_ulp if with_ulp else None, rel_l2=_rel_l2(self.dd, self.bb),
            cosine=_cosine(self.dd, self.aa, self.bb), mismatches=self.mismatches,
            nan_base=self.nan[0], nan_cand=self.nan[1], inf_base=self.inf[0], inf_cand=self.inf[1],
            nonfinite_mismatch=self.nonfinite_mismatch, worst_index=self.worst,
        )


def _take(x: Array | None, keep: Array) -> Array | None:
    return None if x is None else x[keep]


def _rel_l2(dd: float, bb: float) -> float:
    if bb == 0.0:
        return 0.0 if dd == 0.0 else math.inf
    return math.sqrt(dd / bb)


def _cosine(dd: float, aa: float, bb: float) -> float:
    """cos = 1 - (||a-b||^2 - (||a|| - ||b||)^2) / (2 ||a|| ||b||): exact algebra, and stable when a ~ b
    (a direct <a,b> loses 1 - cos below the accumulation error of the dot products)."""
    if aa == 0.0 and bb == 0.0:
        return 1.0
    if aa == 0.0 or bb == 0.0:
        return 0.0
    na, nb = math.sqrt(aa), math.sqrt(bb)
    return max(-1.0, min(1.0, 1.0 - (dd - (na - nb) ** 2) / (2.0 * na * nb)))


def _same_sign_ulp(ia: Array, ib: Array, scratch: Array) -> float | None:
    """Max ULP when no pair can have opposite signs, else None (the caller takes the exact path).

    Callers pass only chunks whose max relative error is < 1: an opposite-sign pair then needs both
    magnitudes below the ``tiny`` floor, and its wrapped difference lands at >= 2^(bits-2), which no
    same-sign pair below that floor reaches; any such value sends the chunk to the exact path.
    """
    if ia.dtype.itemsize > 4 or not ia.size:
        return None
    np.subtract(ia, ib, out=scratch)
    worst = max(int(scratch.max()), -int(scratch.min()))
    return float(worst) if worst < 1 << (8 * ia.dtype.itemsize - 2) else None


def _max_ulp(ia: Array, ib: Array, scratch: Array | None = None) -> float:
    """Exact ULP distance on sign-magnitude bit patterns.

    Same-sign pairs: |ia - ib| (cannot overflow the width). Opposite signs: the two magnitudes added.
    """
    if not ia.size:
        return 0.0
    d = np.empty_like(ia) if scratch is None else scratch
    np.bitwise_xor(ia, ib, out=d)
    cross = 0.0
    opposite = np.flatnonzero(d < 0) if int(d.min()) < 0 else None
    np.subtract(ia, ib, out=d)
    if opposite is not None:
        mask = int(np.iinfo(ia.dtype).max)
        mags = (ia[opposite] & mask).astype(np.float64) + (ib[opposite] & mask).astype(np.float64)
        cross = float(mags.max())
        d[opposite] = 0
    return max(cross, float(d.max()), -float(d.min()))


def _tiny(dtype: str) -> float:
    if DTYPES[dtype].kind != "float":
        return 1.0
    return float(np.finfo(np.float16).tiny) if DTYPES[dtype].bits <= 16 else float(np.finfo(np.float32).tiny)


def tensor_stats(base: Array, cand: Array, dtype: str, atol: float, rtol: float, *, ulp: bool = True) -> TensorStats:
    """Compare two flat storage arrays of one dtype, chunk by chunk, on up to ``WORKERS`` threads.

    numpy releases the GIL inside its loops, so threads scale on large tensors; small ones stay on one.
    """
    starts = list(range(0, base.size, CHUNK))
    workers = max(1, min(WORKERS, len(starts) // 4))
    parts = [starts[i::workers] for i in range(workers)]
    if workers == 1:
        accs = [_run(base, cand, dtype, atol, rtol, ulp, starts)]
    else:
        with ThreadPoolExecutor(workers) as pool:
            accs = list(pool.map(lambda p: _run(base, cand, dtype, atol, rtol, ulp, p), parts))
    total = accs[0]
    for other in accs[1:]:
        total.merge(other)
    stats = total.result(with_ulp=ulp)
    if DTYPES[dtype].kind != "float" and ulp:
        stats = _int_ulp(stats)
    return stats


def _run(base: Array, cand: Array, dtype: str, atol: float, rtol: float, ulp: bool, starts: list[int]) -> _Accumulator:
    acc = _Accumulator(atol, rtol, _tiny(dtype))
    is_float = DTYPES[dtype].kind == "float"
    with np.errstate(all="ignore"):  # NaN/Inf are counted, not warned about
        for start in starts:
            _chunk(acc, base, cand, dtype, ulp, is_float, start)
    return acc


def _chunk(acc: _Accumulator, base: Array, cand: Array, dtype: str, ulp: bool, is_float: bool, start: int) -> None:
    sb, sa = base[start : start + CHUNK], cand[start : start + CHUNK]
    vb, va = values(sb, dtype), values(sa, dtype)
    if not is_float:
        vb, va = vb.astype(np.float64), va.astype(np.float64)
    ib = signed_bits(sb, dtype) if is_float and ulp else None
    ia = signed_bits(sa, dtype) if is_float and ulp else None
    acc.add(va, vb, ia, ib, start)


def _int_ulp(stats: TensorStats) -> TensorStats:
    from dataclasses import replace

    return replace(stats, max_ulp=stats.max_abs)
