"""Process settings for batch work over many files (``scan`` and ``convert``).

Tokenizing builds about one small tuple per four bytes of source. CPython's cyclic garbage collector runs its
youngest generation every 700 net allocations and, now and then, walks every live object; token lists hold no
reference cycles, so those passes find nothing and cost ~15-20% of a scan (docs/benchmarks.md). During a batch
the youngest generation is collected every 100,000 allocations instead (mypy does the same for the same reason);
cycles are still collected, later. The caller's thresholds come back afterwards: the library does not change the
settings of the program that imports it.

Inside one file's work (:func:`gc_paused`: tokenizing, translating or scanning it) the collector does not run at all:
a big file's millions of tokens would otherwise be walked by every collection of the generations they reach (about
15% of an 8 MB file's translation). The collector is back on between files, so a cycle one file made is collected
during the next.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported where used: process pools are not needed to read or write a file
    from concurrent.futures import ProcessPoolExecutor

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


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection inside the block (one file's work); the collector's state comes back after."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


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


@contextmanager
def worker_pool(workers: int, initializer: Callable[[], None] = worker_init) -> Iterator[ProcessPoolExecutor]:
    """Worker processes that die with this one: ``kill -9`` or ``kill`` of the CLI never leaves them running.

    On Linux each worker asks the kernel for SIGKILL when its parent dies (``PR_SET_PDEATHSIG``), and exits at
    once if the parent is already gone. While the pool is open, SIGTERM (in the main thread) first terminates
    the workers, then does what it did before: the previous handler runs, or the default ends the process.
    """
    from concurrent.futures import ProcessPoolExecutor

    previous = _on_sigterm_terminate_children()
    try:
        with ProcessPoolExecutor(max_workers=workers, initializer=_worker_start,
                                 initargs=(os.getpid(), initializer)) as pool:
            yield pool
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


#: prctl option asking for a signal when the parent process dies (linux/prctl.h)
_PR_SET_PDEATHSIG = 1


def _worker_start(parent: int, initializer: Callable[[], None]) -> None:
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - a libc without prctl
            pass
    if os.getppid() != parent and not process_alive(parent):  # it died before the request: nobody waits
        os._exit(1)  # (a different, live parent is a forkserver, which ends with the parent)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a forked worker must not run the parent's handler
    initializer()


_Handler = Callable[[int, FrameType | None], Any] | int | None


def _on_sigterm_terminate_children() -> _Handler:
    """Install the SIGTERM handler of :func:`worker_pool`; returns the one it replaces (None: not installed)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    previous: _Handler = signal.getsignal(signal.SIGTERM)
    if previous is None:  # installed outside Python: the default is the closest we can restore
        previous = signal.SIG_DFL

    import multiprocessing

    def handler(signum: int, frame: FrameType | None) -> None:
        for child in multiprocessing.active_children():
            child.kill()
        signal.signal(signal.SIGTERM, previous)
        if callable(previous):
            previous(signum, frame)
        elif previous != signal.SIG_IGN:
            os.kill(os.getpid(), signal.SIGTERM)

    signal.signal(signal.SIGTERM, handler)
    return previous


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` exists on this machine (this process counts; another user's too)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists, under another user
        return True
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    """Whether ``pid`` has exited and waits to be reaped (Linux ``/proc``; False where it cannot be told). A
    worker whose parent was killed while it started sees it so until the parent's parent reaps it."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rfind(b")") + 1:].split()[:1] == [b"Z"]
