"""Run a command or a Python callable N times after warm-up and time each run.

Commands are timed with the host clock (they are whole processes). Callables are timed with device
events when a GPU is present (``torch.cuda.Event`` around the call, then a sync), else with the host
clock. A failing run is recorded as an error and left out of the samples.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass
class RunResult:
    name: str
    samples: list[float] = field(default_factory=list)  # seconds per run
    errors: list[str] = field(default_factory=list)
    timer: str = "wall"  # wall | cuda-events


def run_command(argv: Sequence[str], runs: int, warmup: int = 1, timeout: float = 3600.0) -> RunResult:
    result = RunResult(" ".join(argv))
    for i in range(warmup + runs):
        start = time.perf_counter()
        try:
            done = subprocess.run(list(argv), capture_output=True, timeout=timeout, check=False)
            error = f"exit code {done.returncode}" if done.returncode else ""
        except (OSError, subprocess.TimeoutExpired) as exc:
            error = f"{type(exc).__name__}: {exc}"
        elapsed = time.perf_counter() - start
        if i < warmup:
            continue
        if error:
            result.errors.append(f"run {i - warmup + 1}: {error}")
        else:
            result.samples.append(elapsed)
    return result


def load_callable(spec: str) -> Callable[[], Any]:
    """``package.module:function`` -> the function (imported, so the user's code runs: that is the point; the
    working directory is on the path for it, as with ``python -m``)."""
    from cuda2rocm.usercode import import_user_module

    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise ValueError(f"expected MODULE:FUNCTION, got {spec!r}")
    func = getattr(import_user_module(module_name), attr, None)
    if not callable(func):
        raise ValueError(f"{spec}: {attr!r} is not a callable in {module_name}")
    return func


def _gpu_timer() -> Callable[[Callable[[], Any]], float] | None:
    try:
        import torch
    except ImportError:
        return None
    if not torch.cuda.is_available():
        return None

    def timed(fn: Callable[[], Any]) -> float:
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        return float(start.elapsed_time(end)) / 1e3

    return timed


def _wall(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def time_callable(fn: Callable[[], Any], runs: int, warmup: int = 1, name: str = "") -> RunResult:
    gpu = _gpu_timer()
    timer = gpu or _wall
    result = RunResult(name or getattr(fn, "__qualname__", "callable"), timer="cuda-events" if gpu else "wall")
    for i in range(warmup + runs):
        try:
            elapsed = timer(fn)
        except Exception as exc:  # the user's code may raise anything; record it
            if i >= warmup:
                result.errors.append(f"run {i - warmup + 1}: {type(exc).__name__}: {exc}")
            continue
        if i >= warmup:
            result.samples.append(elapsed)
    return result


def to_records(result: RunResult, env: dict[str, Any], metric: str = "") -> list[dict[str, Any]]:
    """Our JSONL metric records: the samples as one metric plus an error count."""
    name = metric or f"{result.name}/time_s"
    return [
        {"metric": name, "values": result.samples, "unit": "s", "better": "lower", "timer": result.timer,
         "env": env},
        {"metric": f"{name.rsplit('/', 1)[0]}/errors", "value": len(result.errors), "better": "lower",
         "errors": result.errors},
    ]
