"""Cost per task from a price per GPU-hour: from a time per task (s) or a throughput (tasks/s)."""

from __future__ import annotations


def per_task_from_seconds(seconds_per_task: float, price_per_gpu_hour: float, gpus: int = 1) -> float:
    if seconds_per_task < 0 or price_per_gpu_hour < 0 or gpus < 1:
        raise ValueError("time, price and GPU count must be non-negative (GPUs >= 1)")
    return seconds_per_task / 3600.0 * gpus * price_per_gpu_hour


def per_task_from_rate(tasks_per_second: float, price_per_gpu_hour: float, gpus: int = 1) -> float:
    if tasks_per_second <= 0:
        raise ValueError("throughput must be > 0 to price a task")
    return per_task_from_seconds(1.0 / tasks_per_second, price_per_gpu_hour, gpus)


def per_task(median: float, direction: str, price_per_gpu_hour: float, gpus: int = 1) -> float:
    """A 'lower' metric is seconds per task; a 'higher' one is tasks per second."""
    if direction == "higher":
        return per_task_from_rate(median, price_per_gpu_hour, gpus)
    return per_task_from_seconds(median, price_per_gpu_hour, gpus)
