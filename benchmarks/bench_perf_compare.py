"""Cost of `bench compare`: metrics x samples per side -> seconds (bootstrap 2000 resamples + MWU).

    python benchmarks/bench_perf_compare.py
"""

from __future__ import annotations

import time

import numpy as np

from cuda2rocm.perf import compare
from cuda2rocm.perf.metrics import Metric


def case(metrics: int, samples: int) -> float:
    rng = np.random.default_rng(0)
    base = {f"m{i}_s": Metric(f"m{i}_s", list(rng.normal(1, 0.05, samples))) for i in range(metrics)}
    cand = {f"m{i}_s": Metric(f"m{i}_s", list(rng.normal(1.02, 0.05, samples))) for i in range(metrics)}
    start = time.perf_counter()
    compare.compare(base, cand)
    return time.perf_counter() - start


if __name__ == "__main__":
    print("| metrics | samples/side | seconds | ms/metric |")
    print("|---:|---:|---:|---:|")
    for metrics, samples in ((10, 7), (100, 7), (100, 30), (1000, 7), (100, 200)):
        best = min(case(metrics, samples) for _ in range(3))
        print(f"| {metrics} | {samples} | {best:.3f} | {best / metrics * 1e3:.2f} |")
