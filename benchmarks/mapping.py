"""Mapping-table timings: `python benchmarks/mapping.py` prints a table.

Targets (scan's hot path): importing and loading every table in a fresh process < 0.3 s; a lookup is a
dict get (< 1 us); identifier_library() < 5 us (memoised) and < 20 us the first time a name is seen.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable

COLD = "import time; t=time.perf_counter(); from cuda2rocm import mapping; m=mapping.load(); " \
       "print(time.perf_counter()-t, len(m))"  # fmt: skip


def timed(fn: Callable[[], object], reps: int) -> float:
    start = time.perf_counter()
    for _ in range(reps):
        fn()
    return (time.perf_counter() - start) / reps


def cold_load() -> tuple[float, int]:
    runs = []
    for _ in range(5):
        out = subprocess.run([sys.executable, "-c", COLD], capture_output=True, text=True, check=True).stdout
        seconds, rows = out.split()
        runs.append(float(seconds))
    return statistics.median(runs), int(rows)


def main() -> None:
    from cuda2rocm.mapping import identifier_library, load

    table = load()
    uncached = identifier_library.__wrapped__
    cold, rows = cold_load()
    measures = [
        (f"cold import + load, {rows} rows (s)", cold, 0.3),
        ("lookup('cudaMalloc') (s)", timed(lambda: table.lookup("cudaMalloc"), 200_000), 1e-6),
        ("lookup miss (s)", timed(lambda: table.lookup("my_function"), 200_000), 1e-6),
        ("header('cublas_v2.h') (s)", timed(lambda: table.header("cublas_v2.h"), 200_000), 1e-6),
        ("identifier_library(table name) (s)", timed(lambda: identifier_library("cublasSgemm_v2"), 100_000), 5e-6),
        ("identifier_library(prefix only) (s)", timed(lambda: identifier_library("cudaFutureCall"), 100_000), 5e-6),
        ("  same, first call (uncached) (s)", timed(lambda: uncached("cudaFutureCall"), 20_000), 2e-5),
        ("identifier_library(not CUDA) (s)", timed(lambda: identifier_library("my_function"), 100_000), 5e-6),
    ]
    print(f"{'measure':42} {'value':>12} {'target':>10}  ok")
    for name, value, target in measures:
        print(f"{name:42} {value:12.7f} {target:10.7f}  {'yes' if value <= target else 'NO'}")


if __name__ == "__main__":
    main()
