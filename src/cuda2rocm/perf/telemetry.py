"""GPU telemetry sampled every second during a run: power, temperature, clocks, memory, ECC errors.

Sources, first that works: NVML (nvidia-ml-py), ``nvidia-smi --query-gpu`` CSV, ``amd-smi metric
--json``... (``rocm-smi --json``). Parsers are pure functions; :class:`Sampler` polls a source on a
thread. Summaries give min/mean/max per GPU and field, ECC error increases and throttling.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

FIELDS = ("power_w", "temp_c", "sm_clock_mhz", "mem_used_mib", "util_pct", "ecc_errors")
Source = Callable[[], list[dict[str, Any]]]
_SMI_QUERY = ("index,power.draw,temperature.gpu,clocks.sm,memory.used,utilization.gpu,"
              "ecc.errors.uncorrected.volatile.total,clocks_throttle_reasons.active")


def _num(text: Any) -> float | None:
    try:
        return float(str(text).strip().split()[0])
    except (ValueError, IndexError):
        return None


def parse_nvidia_smi_csv(text: str) -> list[dict[str, Any]]:
    """Rows of ``nvidia-smi --query-gpu=<_SMI_QUERY> --format=csv,noheader,nounits``."""
    out = []
    for row in csv.reader(io.StringIO(text)):
        if len(row) < 8:
            continue
        values = [_num(c) for c in row[:7]]
        throttle = row[7].strip()
        out.append({"gpu": int(values[0] or 0), **dict(zip(FIELDS, values[1:], strict=True)),
                    "throttled": throttle not in ("0x0000000000000000", "[N/A]", "N/A", "")})
    return out


def parse_rocm_smi_json(text: str) -> list[dict[str, Any]]:
    """``rocm-smi --showpower --showtemp --showuse --showmeminfo vram --json`` (card0, card1, ...)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return []
    out = []
    for card, values in sorted(data.items()) if isinstance(data, dict) else []:
        if not card.startswith("card") or not isinstance(values, dict):
            continue
        pick = {k.lower(): v for k, v in values.items()}
        power = next((v for k, v in pick.items() if "power" in k and "(w)" in k), None)
        temp = next((v for k, v in pick.items() if "temperature" in k and "(c)" in k), None)
        used = next((v for k, v in pick.items() if "vram total used memory" in k), None)
        out.append({"gpu": int(card[4:]), "power_w": _num(power), "temp_c": _num(temp),
                    "mem_used_mib": (_num(used) or 0) / 2**20 if used is not None else None,
                    "util_pct": _num(pick.get("gpu use (%)")), "sm_clock_mhz": None, "ecc_errors": None,
                    "throttled": False})
    return out


def _run(argv: list[str]) -> str:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout if done.returncode == 0 else ""


def nvml_source() -> Source | None:
    try:
        import pynvml
        pynvml.nvmlInit()
        handles = [pynvml.nvmlDeviceGetHandleByIndex(i) for i in range(pynvml.nvmlDeviceGetCount())]
    except Exception:  # no driver, no library: try the next source
        return None

    def sample() -> list[dict[str, Any]]:
        return [_nvml_row(pynvml, i, h) for i, h in enumerate(handles)]

    return sample


def _nvml_row(pynvml: Any, index: int, h: Any) -> dict[str, Any]:
    def safe(fn: Callable[[], Any]) -> Any:
        try:
            return fn()
        except Exception:  # a field this GPU does not report
            return None

    ecc = safe(lambda: pynvml.nvmlDeviceGetTotalEccErrors(h, pynvml.NVML_MEMORY_ERROR_TYPE_UNCORRECTED,
                                                           pynvml.NVML_VOLATILE_ECC))
    power = safe(lambda: pynvml.nvmlDeviceGetPowerUsage(h))
    mem = safe(lambda: pynvml.nvmlDeviceGetMemoryInfo(h))
    reasons = safe(lambda: pynvml.nvmlDeviceGetCurrentClocksThrottleReasons(h)) or 0
    return {"gpu": index, "power_w": power / 1e3 if power is not None else None,
            "temp_c": safe(lambda: pynvml.nvmlDeviceGetTemperature(h, pynvml.NVML_TEMPERATURE_GPU)),
            "sm_clock_mhz": safe(lambda: pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM)),
            "mem_used_mib": mem.used / 2**20 if mem is not None else None,
            "util_pct": safe(lambda: pynvml.nvmlDeviceGetUtilizationRates(h).gpu), "ecc_errors": ecc,
            "throttled": bool(reasons & ~0x1)}  # bit 0 is 'GPU idle'


def smi_source() -> Source | None:
    if shutil.which("nvidia-smi"):
        return lambda: parse_nvidia_smi_csv(_run(["nvidia-smi", f"--query-gpu={_SMI_QUERY}",
                                                  "--format=csv,noheader,nounits"]))
    if shutil.which("rocm-smi"):
        return lambda: parse_rocm_smi_json(_run(["rocm-smi", "--showpower", "--showtemp", "--showuse",
                                                 "--showmeminfo", "vram", "--json"]))
    return None


def find_source() -> tuple[str, Source | None]:
    for name, factory in (("nvml", nvml_source), ("smi", smi_source)):
        source = factory()
        if source is not None:
            return name, source
    return "none", None


@dataclass
class Sampler:
    """Polls ``source`` every ``interval`` seconds on a daemon thread between start() and stop()."""

    source: Source
    interval: float = 1.0
    samples: list[dict[str, Any]] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def _loop(self) -> None:
        t0 = time.monotonic()
        while not self._stop.is_set():
            now = time.monotonic() - t0
            self.samples.extend({**row, "t": now} for row in self.source())
            self._stop.wait(self.interval)

    def start(self) -> Sampler:
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> list[dict[str, Any]]:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self.interval + 15)
        return self.samples


def summarize(samples: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per GPU: min/mean/max of each field, ECC increase over the run, fraction of samples throttled."""
    out: dict[str, dict[str, Any]] = {}
    for gpu in sorted({s["gpu"] for s in samples}):
        rows = [s for s in samples if s["gpu"] == gpu]
        entry: dict[str, Any] = {"samples": len(rows)}
        for name in FIELDS[:-1]:
            vals = [float(r[name]) for r in rows if r.get(name) is not None]
            if vals:
                entry[name] = {"min": min(vals), "mean": sum(vals) / len(vals), "max": max(vals)}
        ecc = [r["ecc_errors"] for r in rows if r.get("ecc_errors") is not None]
        entry["ecc_increase"] = (ecc[-1] - ecc[0]) if ecc else None
        entry["throttled_fraction"] = sum(bool(r.get("throttled")) for r in rows) / len(rows)
        entry["power_spark"] = sparkline([r.get("power_w") for r in rows])
        out[f"gpu{gpu}"] = entry
    return out


def sparkline(values: list[Any], width: int = 40) -> str:
    """A one-line text plot of a series (the 'plot' in a terminal or a Markdown report)."""
    vals = [float(v) for v in values if v is not None]
    if not vals:
        return ""
    step = max(1, len(vals) // width)
    vals = vals[::step]
    lo, hi = min(vals), max(vals)
    bars = "▁▂▃▄▅▆▇█"
    return "".join(bars[int((v - lo) / (hi - lo) * 7) if hi > lo else 0] for v in vals)
