"""Soak mode: run a workload back to back for a set duration; report drift, throttling and errors.

Drift compares the median iteration time of the last fifth of the run with the first fifth, and fits a
least-squares slope (fraction of the mean per hour). Throttling and ECC errors come from telemetry.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cuda2rocm.perf import telemetry


@dataclass
class SoakResult:
    times: list[tuple[float, float]] = field(default_factory=list)  # (seconds since start, iteration seconds)
    errors: list[str] = field(default_factory=list)
    telemetry: dict[str, dict[str, Any]] = field(default_factory=dict)

    def drift(self) -> float:
        """median(last fifth) / median(first fifth) - 1 (positive: iterations got slower)."""
        if len(self.times) < 10:
            return float("nan")
        k = max(1, len(self.times) // 5)
        first = float(np.median([d for _, d in self.times[:k]]))
        last = float(np.median([d for _, d in self.times[-k:]]))
        return last / first - 1 if first > 0 else float("nan")

    def slope_per_hour(self) -> float:
        if len(self.times) < 3:
            return float("nan")
        t = np.array([s for s, _ in self.times])
        d = np.array([x for _, x in self.times])
        if np.ptp(t) == 0 or d.mean() == 0:
            return float("nan")
        slope = float(np.polyfit(t, d, 1)[0])
        return slope * 3600 / float(d.mean())

    def throttled(self) -> bool:
        return any(v.get("throttled_fraction", 0) > 0 for v in self.telemetry.values())

    def ecc_errors(self) -> int:
        return int(sum(v.get("ecc_increase") or 0 for v in self.telemetry.values()))

    def problems(self, max_drift: float = 0.05) -> list[str]:
        out = [f"{len(self.errors)} failed iterations"] if self.errors else []
        drift = self.drift()
        if drift == drift and drift > max_drift:
            out.append(f"iterations {drift:.1%} slower at the end than at the start (limit {max_drift:.0%})")
        if self.throttled():
            out.append("GPU clocks throttled during the run (telemetry)")
        if self.ecc_errors():
            out.append(f"{self.ecc_errors()} new uncorrected ECC errors")
        return out


def soak(workload: Callable[[], Any], duration_s: float, source: telemetry.Source | None = None,
         interval: float = 1.0) -> SoakResult:
    result = SoakResult()
    sampler = telemetry.Sampler(source, interval).start() if source else None
    t0 = time.perf_counter()
    try:
        while time.perf_counter() - t0 < duration_s:
            start = time.perf_counter()
            try:
                workload()
            except Exception as exc:  # a failing iteration is what a soak looks for
                result.errors.append(f"{start - t0:.1f}s: {type(exc).__name__}: {exc}")
                continue
            result.times.append((start - t0, time.perf_counter() - start))
    finally:
        if sampler is not None:
            result.telemetry = telemetry.summarize(sampler.stop())
    return result
