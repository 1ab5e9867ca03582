"""Service metrics: latency percentiles, throughput and time to first token.

From a JSONL request log (one object per request: ``latency_s`` or ``start``/``end`` in seconds, optional
``ttft_s`` or ``first_token``, ``tokens``, ``ok``) or from a callable driven at several concurrency
levels; a callable returning an iterator is treated as streaming (TTFT = first item, tokens = items).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from cuda2rocm.perf.stats import percentile


@dataclass(frozen=True)
class Request:
    start: float
    latency: float
    ttft: float | None = None
    tokens: int = 0
    ok: bool = True


def request_from_record(rec: dict[str, Any]) -> Request | None:
    start = float(rec.get("start", 0.0))
    if "latency_s" in rec:
        latency = float(rec["latency_s"])
    elif "latency_ms" in rec:
        latency = float(rec["latency_ms"]) / 1e3
    elif "end" in rec and "start" in rec:
        latency = float(rec["end"]) - start
    else:
        return None
    ttft = rec.get("ttft_s", (float(rec["first_token"]) - start) if "first_token" in rec else None)
    return Request(start, latency, None if ttft is None else float(ttft), int(rec.get("tokens", 0)),
                   bool(rec.get("ok", True)))


def summarize(requests: Sequence[Request], wall_s: float | None = None, prefix: str = "service") -> dict[str, float]:
    """p50/p95/p99 latency and TTFT (s), requests/s, tokens/s, error rate."""
    ok = [r for r in requests if r.ok]
    if wall_s is None:
        first = min((r.start for r in requests), default=0.0)
        wall_s = max((r.start + r.latency for r in requests), default=0.0) - first
    lat = [r.latency for r in ok]
    out = {f"{prefix}/latency_p{q}_s": percentile(lat, q) for q in (50, 95, 99)}
    ttfts = [r.ttft for r in ok if r.ttft is not None]
    if ttfts:
        out.update({f"{prefix}/ttft_p{q}_s": percentile(ttfts, q) for q in (50, 95, 99)})
    out[f"{prefix}/throughput_rps"] = len(ok) / wall_s if wall_s > 0 else float("nan")
    out[f"{prefix}/tokens_per_s"] = sum(r.tokens for r in ok) / wall_s if wall_s > 0 else float("nan")
    out[f"{prefix}/error_rate"] = (len(requests) - len(ok)) / len(requests) if requests else float("nan")
    return out


def _one(fn: Callable[[], Any], epoch: float) -> Request:
    start = time.perf_counter()
    try:
        out = fn()
        ttft, tokens = None, 0
        if isinstance(out, Iterator):
            for _ in out:
                if ttft is None:
                    ttft = time.perf_counter() - start
                tokens += 1
        return Request(start - epoch, time.perf_counter() - start, ttft, tokens)
    except Exception:  # a failed request is a data point, not a crash
        return Request(start - epoch, time.perf_counter() - start, ok=False)


def drive(fn: Callable[[], Any], concurrency: int, requests: int) -> tuple[list[Request], float]:
    """``requests`` calls of ``fn`` from ``concurrency`` threads; returns the requests and the wall time."""
    epoch = time.perf_counter()
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        done = list(pool.map(lambda _: _one(fn, epoch), range(requests)))
    return done, time.perf_counter() - epoch


def sweep(fn: Callable[[], Any], levels: Iterable[int], requests: int) -> dict[str, float]:
    out: dict[str, float] = {}
    for c in levels:
        reqs, wall = drive(fn, c, requests)
        out.update(summarize(reqs, wall, prefix=f"service/c{c}"))
    return out
