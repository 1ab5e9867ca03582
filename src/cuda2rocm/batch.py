"""Process settings for batch work over many files (``scan`` and ``convert``).

Tokenizing builds about one small tuple per four bytes of source. CPython's cyclic garbage collector runs its
youngest generation every 700 net allocations and, now and then, walks every live object; token lists hold no
reference cycles, so those passes find nothing and cost ~15-20% of a scan (docs/benchmarks.md). During a batch
the youngest generation is collected every 100,000 allocations instead (mypy does the same for the same reason);
cycles are still collected, later. The caller's thresholds come back afterwards: the library does not change the
settings of the program that imports it.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager

#: allocations between collections of the youngest generation during a batch (CPython's default: 700)
BATCH_THRESHOLD = 100_000


@contextmanager
def batch_gc() -> Iterator[None]:
    """Collect the youngest generation every :data:`BATCH_THRESHOLD` allocations inside the block."""
    old = gc.get_threshold()
    worker_init()
    try:
        yield
    finally:
        gc.set_threshold(*old)


def worker_init() -> None:
    """Initializer for worker processes that only run batch work: the batch threshold for their lifetime."""
    old = gc.get_threshold()
    gc.set_threshold(max(old[0], BATCH_THRESHOLD), *old[1:])


#: with ``jobs=0`` (automatic), inputs smaller than this run in one process: starting workers costs more
AUTO_MIN_BYTES = 4 * 2**20
#: with ``jobs=0``, at most this many worker processes
AUTO_MAX_JOBS = 8


def cpu_count() -> int:
    """CPUs this process may run on (its affinity mask where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - platforms without sched_getaffinity
        return max(1, os.cpu_count() or 1)


def auto_jobs(requested: int, work_bytes: int) -> int:
    """Worker processes for a batch: ``requested`` when >= 1; for 0 (automatic) one per CPU, up to
    :data:`AUTO_MAX_JOBS`, or 1 when the input is under :data:`AUTO_MIN_BYTES`."""
    if requested >= 1:
        return requested
    if work_bytes < AUTO_MIN_BYTES:
        return 1
    return min(cpu_count(), AUTO_MAX_JOBS)
