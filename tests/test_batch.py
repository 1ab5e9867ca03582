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
