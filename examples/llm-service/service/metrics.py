"""GPU memory and utilisation numbers for the health endpoint."""

from __future__ import annotations

import pynvml


def gpu_memory_report(index: int = 0) -> dict[str, int]:
    pynvml.nvmlInit()
    handle = pynvml.nvmlDeviceGetHandleByIndex(index)
    mem = pynvml.nvmlDeviceGetMemoryInfo(handle)
    util = pynvml.nvmlDeviceGetUtilizationRates(handle)
    return {"used_mb": mem.used // 2**20, "total_mb": mem.total // 2**20, "util_pct": util.gpu}
