"""Batch GC settings: raised inside scan/convert, the caller's own settings restored afterwards."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from cuda2rocm.batch import BATCH_THRESHOLD, batch_gc, worker_init


@pytest.fixture
def thresholds() -> Iterator[None]:
    old = gc.get_threshold()
    yield
    gc.set_threshold(*old)


def test_batch_gc_raises_the_youngest_threshold_and_restores_it(thresholds: None) -> None:
    gc.set_threshold(700, 11, 12)
    with batch_gc():
        assert gc.get_threshold() == (BATCH_THRESHOLD, 11, 12)
    assert gc.get_threshold() == (700, 11, 12)


def test_batch_gc_restores_after_an_exception_and_keeps_a_higher_setting(thresholds: None) -> None:
    gc.set_threshold(BATCH_THRESHOLD * 2, 10, 10)
    with pytest.raises(RuntimeError), batch_gc():
        assert gc.get_threshold()[0] == BATCH_THRESHOLD * 2
        raise RuntimeError("boom")
    assert gc.get_threshold() == (BATCH_THRESHOLD * 2, 10, 10)


def test_worker_init_sets_the_batch_threshold(thresholds: None) -> None:
    gc.set_threshold(700, 10, 10)
    worker_init()
    assert gc.get_threshold() == (BATCH_THRESHOLD, 10, 10)


def test_scan_and_convert_leave_the_callers_settings_alone(thresholds: None, tmp_path: Path) -> None:
    from cuda2rocm.scan.api import scan
    from cuda2rocm.translate.api import convert

    (tmp_path / "k.cu").write_text("__global__ void k(float* p) { p[threadIdx.x] = 0; }\n")
    gc.set_threshold(700, 10, 10)
    assert scan(tmp_path).stats["files"] == 1
    convert(tmp_path / "k.cu", tmp_path / "out.hip")
    assert gc.get_threshold() == (700, 10, 10)


def test_auto_jobs_keeps_an_explicit_request() -> None:
    from cuda2rocm.batch import auto_jobs

    assert auto_jobs(3, 0) == 3 and auto_jobs(1, 10**12) == 1


def test_auto_jobs_is_serial_for_small_inputs_and_bounded_for_large() -> None:
    from cuda2rocm.batch import AUTO_MAX_JOBS, AUTO_MIN_BYTES, auto_jobs, cpu_count

    assert auto_jobs(0, AUTO_MIN_BYTES - 1) == 1
    assert auto_jobs(0, AUTO_MIN_BYTES) == min(cpu_count(), AUTO_MAX_JOBS) >= 1


def test_options_accept_automatic_jobs_and_refuse_negative() -> None:
    from cuda2rocm.translate.options import Options

    assert Options(jobs=0).jobs == 0
    with pytest.raises(ValueError, match="automatic"):
        Options(jobs=-1)


def test_automatic_jobs_give_the_same_results_as_one_process(tmp_path: Path) -> None:
    from cuda2rocm.scan.api import scan
    from cuda2rocm.translate.api import convert
    from cuda2rocm.translate.options import Options

    kernels = "".join(f"__global__ void k{i}(float* p) {{ p[threadIdx.x] = cudaGetLastError(); }}\n"
                      for i in range(10))
    filler = ("// " + "x" * 200 + "\n") * 400  # comments: cheap to read, and they make the inputs big
    for n in range(60):  # 60 files of ~80 KB: above the automatic threshold
        (tmp_path / f"f{n}.cu").write_text(kernels + filler)
    one, auto = scan(tmp_path, jobs=1), scan(tmp_path, jobs=0)
    assert one.findings == auto.findings and one.stats["lines"] == auto.stats["lines"] == 60 * 410
    a = convert(tmp_path, tmp_path.parent / "o1", Options(jobs=1))
    b = convert(tmp_path, tmp_path.parent / "o0", Options(jobs=0))
    texts = [r.text for r in a.results]  # type: ignore[union-attr]
    assert texts == [r.text for r in b.results] and all("hipGetLastError" in t for t in texts)  # type: ignore[union-attr]


@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="needs Linux /proc")
def test_an_exited_parent_not_yet_reaped_is_not_alive() -> None:
    """A worker whose parent was killed while the worker started sees the parent as a zombie until the parent's
    own parent reaps it: it must count as gone, or the worker waits forever for work (tree-safety test)."""
    import os
    import subprocess
    import sys
    import time

    from cuda2rocm.batch import process_alive

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and Path(f"/proc/{child.pid}/stat").read_bytes().split(b")")[-1].split()[0] \
            != b"Z":
        time.sleep(0.02)
    assert not process_alive(child.pid)  # exited, not reaped
    child.wait()
    assert not process_alive(child.pid)
    assert process_alive(os.getpid()) and process_alive(os.getppid())


def test_gc_paused_disables_the_collector_inside_and_restores_it() -> None:
    from cuda2rocm.batch import gc_paused

    assert gc.isenabled()
    with pytest.raises(RuntimeError), gc_paused():
        assert not gc.isenabled()
        raise RuntimeError
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # a caller's disabled collector stays disabled
    finally:
        gc.enable()


def test_translating_a_file_runs_at_most_the_one_collection_after_it() -> None:
    """Without the pause, the default thresholds collect dozens of times over this file's ~60,000 tokens."""
    from cuda2rocm.translate.engine import translate_text
    from cuda2rocm.translate.options import Options

    seen: list[str] = []

    def note(phase: str, info: dict[str, int]) -> None:
        seen.append(phase)

    text = "".join(f"__global__ void k{i}(float* p) {{ p[threadIdx.x] = {i}; }}\n" for i in range(3000))
    gc.callbacks.append(note)
    try:
        translate_text(text, "big.cu", Options())
    finally:
        gc.callbacks.remove(note)
    assert seen.count("start") <= 1
