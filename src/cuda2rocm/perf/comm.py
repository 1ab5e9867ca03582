"""``comm`` as a library call: run inside a torchrun process, return (on rank 0) the records.

Launch (one node, N GPUs):  ``torchrun --nproc-per-node N -m cuda2rocm comm --ops all_reduce ...``
Multi-node: add ``--nnodes M --node-rank R --rdzv-backend c10d --rdzv-endpoint HOST:29500 --rdzv-id JOB``
on every node (torchrun's own rendezvous; nothing home-made). ``cuda2rocm comm --nproc N`` starts
torchrun itself for the single-node case.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist

from cuda2rocm.perf import backend, commbench, fingerprint, links, records, topology
from cuda2rocm.results.perf import CommRun

__all__ = ["add_peak_fraction", "run"]


def _local_gpus() -> list[int]:
    return list(range(int(os.environ.get("LOCAL_WORLD_SIZE", "1"))))


def _peak(device: torch.device, topo: topology.Topology, world: int) -> links.Peak | None:
    if device.type != "cuda":
        return None
    gpus = _local_gpus()
    link = topo.link(gpus[0], gpus[1]) if len(gpus) > 1 else ""
    return links.peak(torch.cuda.get_device_name(device), link, world)


def _header(info: backend.BackendInfo, topo: topology.Topology, peak: links.Peak | None) -> dict[str, Any]:
    problems = backend.verify(info)
    warnings = problems + topology.warnings(topo, _local_gpus())
    return {
        "kind": "comm-run",
        "backend": info.label,
        "backend_library": info.library,
        "backend_version": info.version,
        "world_size": dist.get_world_size(),
        "nnodes": dist.get_world_size() // max(1, len(_local_gpus())),
        "topology_tool": topo.tool,
        "topology": topo.text,
        "link_peak": {"label": peak.label, "gbps": peak.gbps, "source": peak.source} if peak else None,
        "warnings": warnings,
        "backend_problems": problems,
        "env": fingerprint.fingerprint(),
    }


def add_peak_fraction(recs: list[dict[str, Any]], peak: links.Peak | None) -> None:
    for rec in recs:
        busbw = rec.get("busbw_gbps")
        rec["peak_fraction"] = busbw / peak.gbps if peak and isinstance(busbw, float) else None


def run(cfg: commbench.SweepConfig, requested_backend: str = "auto", out: Path | None = None) -> CommRun | None:
    """Join the torchrun job, sweep, and on rank 0 write ``out`` (JSONL: header line, then results)."""
    device, info = backend.init(requested_backend)
    try:
        is_root = dist.get_rank() == 0
        topo = topology.read() if is_root else topology.Topology()
        peak = _peak(device, topo, dist.get_world_size()) if is_root else None
        header = _header(info, topo, peak) if is_root else {}
        recs = commbench.sweep(cfg, device, info)
        add_peak_fraction(recs, peak)
    finally:
        dist.barrier()
        dist.destroy_process_group()
    if not is_root:
        return None
    if out is not None:
        records.write_jsonl(out, [header, *recs])
    return CommRun(header, recs)
