"""Timing of a repeated call, three ways, so small messages are not dominated by Python overhead.

- ``graph``: ``iters`` calls captured once in a CUDA graph, replayed between two device events (like
  nccl-tests' ``-G``); launch overhead is paid once per replay, not once per call.
- ``events``: ``iters`` eager calls between two device events (nccl-tests' default loop).
- ``wall``: ``iters`` eager calls between two host clock reads with a device sync before each read: the
  plain ``dist.all_reduce`` Python loop most people write; also the only mode on CPU (gloo).

- ``auto``: both ``graph`` and ``events``, keeping the one with the lower median and naming it. On the
  H200 pair, graph replay wins at 1 MB (launch overhead gone) while the eager loop wins from 2 MB to
  32 MB (graph-captured NCCL kernels ran ~10 us slower each there); see docs/benchmarks.md.

Every mode returns seconds per call, one value per repetition.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import torch

MODES = ("auto", "graph", "events", "wall")


@dataclass(frozen=True)
class Timed:
    seconds: tuple[float, ...]  # per call, one per repetition
    mode: str  # the mode actually used
    note: str = ""  # why another mode than asked was used


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def time_wall(call: Callable[[], None], iters: int, reps: int, device: torch.device) -> list[float]:
    out = []
    for _ in range(reps):
        _sync(device)
        start = time.perf_counter()
        for _ in range(iters):
            call()
        _sync(device)
        out.append((time.perf_counter() - start) / iters)
    return out


def _time_events(run_once: Callable[[], None], divisor: int, reps: int) -> list[float]:
    out = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        run_once()
        end.record()
        end.synchronize()
        out.append(start.elapsed_time(end) / 1e3 / divisor)
    return out


def time_events(call: Callable[[], None], iters: int, reps: int) -> list[float]:
    def loop() -> None:
        for _ in range(iters):
            call()

    return _time_events(loop, iters, reps)


def capture(call: Callable[[], None], iters: int) -> torch.cuda.CUDAGraph:
    """Capture ``iters`` calls in one CUDA graph (after a warm-up call on a side stream)."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        call()
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(iters):
            call()
    return graph


def time_graph(call: Callable[[], None], iters: int, reps: int) -> list[float]:
    graph = capture(call, iters)
    graph.replay()  # warm replay: first replay uploads the graph
    torch.cuda.synchronize()
    try:
        return _time_events(graph.replay, iters, reps)
    finally:
        del graph


def faster(a: Timed, b: Timed) -> Timed:
    """The timing with the lower median, noting the other's median (for ``auto``)."""
    med_a, med_b = sorted(a.seconds)[len(a.seconds) // 2], sorted(b.seconds)[len(b.seconds) // 2]
    best, other, med_other = (a, b, med_b) if med_a <= med_b else (b, a, med_a)
    note = f"auto: {other.mode} median {med_other * 1e6:.2f} us"
    return Timed(best.seconds, best.mode, "; ".join(x for x in (best.note, note) if x))


def measure(call: Callable[[], None], mode: str, iters: int, reps: int, device: torch.device) -> Timed:
    """Time ``call`` in ``mode``; on CPU, or if graph capture fails, fall back and say why."""
    if mode not in MODES:
        raise ValueError(f"unknown timing mode {mode!r}; known: {', '.join(MODES)}")
    if device.type != "cuda" and mode != "wall":
        note = "" if mode == "auto" else f"{mode} needs a GPU"
        return Timed(tuple(time_wall(call, iters, reps, device)), "wall", note)
    if mode == "auto":
        return faster(measure(call, "graph", iters, reps, device), measure(call, "events", iters, reps, device))
    if mode == "graph":
        try:
            return Timed(tuple(time_graph(call, iters, reps)), "graph")
        except RuntimeError as exc:
            torch.cuda.synchronize()
            note = f"graph capture failed ({str(exc).splitlines()[0][:120]}); used events"
            return Timed(tuple(time_events(call, iters, reps)), "events", note)
    if mode == "events":
        return Timed(tuple(time_events(call, iters, reps)), "events")
    return Timed(tuple(time_wall(call, iters, reps, device)), "wall")
