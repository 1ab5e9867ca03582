"""Named metrics with samples: the common form every source (runs, JSONL, pytest-benchmark, nccl-tests,
``comm``) is turned into before comparison.

Our JSONL metric record: ``{"metric": "tokens_per_s", "value": 812.5}`` or ``"values": [...]``, with
optional ``"unit"``, ``"better": "higher"|"lower"`` and ``"env"`` (the fingerprint). Records with the same
metric name are pooled into one sample set.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

_HIGHER = ("per_s", "per_sec", "throughput", "bw", "gbps", "tflops", "flops", "qps", "rps", "speedup",
           "bandwidth", "tokens_s", "items_s", "samples_s", "efficiency", "accuracy")


@dataclass
class Metric:
    name: str
    samples: list[float] = field(default_factory=list)
    unit: str = ""
    better: str = ""  # higher | lower
    env: dict[str, Any] = field(default_factory=dict)

    def direction(self) -> str:
        return self.better or infer_direction(self.name, self.unit)


def infer_direction(name: str, unit: str = "") -> str:
    """'higher' for rates and bandwidths, 'lower' for times, latencies, memory and errors."""
    text = f"{name} {unit}".lower().replace("/", "_")
    return "higher" if any(word in text for word in _HIGHER) else "lower"


def _values(rec: dict[str, Any]) -> list[float]:
    raw = rec.get("values", [rec.get("value")])
    if not isinstance(raw, list):
        raw = [raw]
    out = []
    for v in raw:
        if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
            out.append(float(v))
    return out


def add(table: dict[str, Metric], name: str, values: Iterable[float], **extra: Any) -> None:
    metric = table.setdefault(name, Metric(name))
    metric.samples.extend(values)
    metric.unit = metric.unit or str(extra.get("unit") or "")
    metric.better = metric.better or str(extra.get("better") or "")
    if extra.get("env") and not metric.env:
        metric.env = dict(extra["env"])


def from_records(records: Iterable[dict[str, Any]]) -> tuple[dict[str, Metric], list[str]]:
    """Metrics from our JSONL records (metric records and ``comm`` records); problems for the rest."""
    table: dict[str, Metric] = {}
    problems: list[str] = []
    for i, rec in enumerate(records, 1):
        if rec.get("kind") == "comm":
            _add_comm(table, rec)
        elif "metric" in rec:
            values = _values(rec)
            if not values:
                problems.append(f"record {i}: metric {rec['metric']!r} has no finite value")
                continue
            add(table, str(rec["metric"]), values, unit=rec.get("unit"), better=rec.get("better"), env=rec.get("env"))
        elif rec.get("kind") not in ("comm-run", "run", "kernel"):
            problems.append(f"record {i}: neither a metric nor a comm record")
    return table, problems


def comm_key(rec: dict[str, Any]) -> str:
    place = "ip" if rec.get("in_place") else "oop"
    timing = rec.get("timing_requested") or rec.get("timing")
    return f"comm/{rec.get('op')}/{rec.get('dtype')}/{place}/{rec.get('bytes')}/{timing}"


def _add_comm(table: dict[str, Metric], rec: dict[str, Any]) -> None:
    if rec.get("error") or not rec.get("samples_us"):
        return
    from cuda2rocm.perf.bandwidth import busbw_gbps

    op, size, world = str(rec["op"]), int(rec["bytes"]), int(rec["world_size"])
    samples = [busbw_gbps(op, size, us / 1e6, world) for us in rec["samples_us"] if us and us > 0]
    add(table, comm_key(rec) + "/busbw_gbps", samples, unit="GB/s", better="higher")
