"""The per-rank worker of ``comm``: sweep ops x dtypes x placements x sizes, check, time, report.

Runs inside every process torchrun starts. Rank 0 gets the records (times averaged over ranks, like
nccl-tests); other ranks get an empty list.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import torch
import torch.distributed as dist

from cuda2rocm.perf import bandwidth, collectives, timing
from cuda2rocm.perf.backend import BackendInfo

DTYPES = {
    "float32": torch.float32,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float64": torch.float64,
    "int32": torch.int32,
    "int8": torch.int8,
    "uint8": torch.uint8,
}


@dataclass(frozen=True)
class SweepConfig:
    ops: tuple[str, ...] = ("all_reduce",)
    sizes: tuple[int, ...] = (1 << 20,)
    dtypes: tuple[str, ...] = ("float32",)
    placement: str = "both"  # in | out | both
    timing: tuple[str, ...] = ("graph",)
    warmup: int = 5
    reps: int = 5
    bytes_per_rep: int = 2 << 30  # iterations per repetition ~ this many bytes
    min_iters: int = 5
    max_iters: int = 100
    check: bool = True
    labels: dict[str, str] = field(default_factory=dict)


def iterations(cfg: SweepConfig, size: int) -> int:
    return max(cfg.min_iters, min(cfg.max_iters, cfg.bytes_per_rep // max(size, 1)))


def cases(cfg: SweepConfig, rank: int, world: int, device: torch.device) -> Iterator[collectives.Case]:
    for op in cfg.ops:
        for dtype_name in cfg.dtypes:
            for in_place in collectives.PLACEMENTS[op]:
                if cfg.placement != "both" and in_place != (cfg.placement == "in"):
                    continue
                for size in cfg.sizes:
                    count = collectives.element_count(op, size, DTYPES[dtype_name], world)
                    if count > 0:
                        yield collectives.Case(op, count, DTYPES[dtype_name], in_place, rank, world, device)


def _mean_over_ranks(values: list[float], device: torch.device) -> list[float]:
    t = torch.tensor(values, dtype=torch.float64, device=device)
    dist.all_reduce(t)
    return [v / dist.get_world_size() for v in t.tolist()]


def _total_wrong(wrong: int, device: torch.device) -> int:
    t = torch.tensor([wrong], dtype=torch.int64, device=device)
    dist.all_reduce(t)
    return int(t.item())


def size_of(case: collectives.Case) -> int:
    return case.count * torch.empty((), dtype=case.dtype).element_size()


def run_case(case: collectives.Case, cfg: SweepConfig, mode: str) -> dict[str, Any]:
    """Build buffers, check once, warm up, time; return the record (identical on every rank)."""
    bufs = collectives.build(case)
    bufs.call()
    wrong = collectives.mismatches(bufs) if cfg.check else 0
    wrong = _total_wrong(wrong, case.device)
    for _ in range(cfg.warmup):
        bufs.call()
    size = size_of(case)
    iters = iterations(cfg, size)
    timed = timing.measure(bufs.call, mode, iters, cfg.reps, case.device)
    seconds = _mean_over_ranks(list(timed.seconds), case.device)
    del bufs
    return {**_record(case, size, iters, timed, seconds, wrong, cfg), "timing_requested": mode}


def _record(
    case: collectives.Case, size: int, iters: int, timed: timing.Timed, seconds: list[float], wrong: int,
    cfg: SweepConfig,
) -> dict[str, Any]:
    median = statistics.median(seconds)
    return {
        "kind": "comm",
        "op": case.op,
        "dtype": str(case.dtype).removeprefix("torch."),
        "bytes": size,
        "count": case.count,
        "in_place": case.in_place,
        "world_size": case.world,
        "timing": timed.mode,
        "timing_note": timed.note,
        "iters": iters,
        "reps": len(seconds),
        "time_us": median * 1e6,
        "samples_us": [s * 1e6 for s in seconds],
        "algbw_gbps": bandwidth.algbw_gbps(size, median),
        "busbw_gbps": bandwidth.busbw_gbps(case.op, size, median, case.world),
        "wrong": wrong,
        "correct": wrong == 0 if cfg.check else None,
        **cfg.labels,
    }


def _error_record(case: collectives.Case, mode: str, exc: Exception) -> dict[str, Any]:
    first = (str(exc).splitlines() or [type(exc).__name__])[0]
    return {
        "kind": "comm", "op": case.op, "dtype": str(case.dtype).removeprefix("torch."),
        "bytes": size_of(case), "in_place": case.in_place, "world_size": case.world,
        "timing": mode, "error": f"{type(exc).__name__}: {first[:200]}", "correct": False,
    }


def sweep(cfg: SweepConfig, device: torch.device, info: BackendInfo) -> list[dict[str, Any]]:
    """Run every case in every timing mode; a failing case becomes an error record, the sweep goes on."""
    rank, world = dist.get_rank(), dist.get_world_size()
    records: list[dict[str, Any]] = []
    for case in cases(cfg, rank, world, device):
        for mode in cfg.timing:
            try:
                rec = run_case(case, cfg, mode)
            except (RuntimeError, ValueError) as exc:  # an op the backend lacks, out of memory, ...
                rec = _error_record(case, mode, exc)
            rec["backend"] = info.label
            records.append(rec)
            if device.type == "cuda":
                torch.cuda.empty_cache()
    return records if rank == 0 else []
