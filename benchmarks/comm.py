"""Collective bandwidth against the targets of issue 7 (and the 2/4/8-GPU scaling table of issue 8).

    python benchmarks/comm.py benchmarks/results/comm-h200x2-2026-11-30      # tables from saved runs
    python benchmarks/comm.py --scaling DIR_WITH_w2.jsonl_w4.jsonl_w8.jsonl  # issue 8

The runs themselves come from scripts/gpu/comm.sh (2 GPUs) and scripts/gpu/comm8.sh (2, 4, 8 GPUs);
on a CPU-only machine ``cuda2rocm comm --nproc 2 --backend gloo`` exercises the same code.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from cuda2rocm.perf import summary


def _records(path: Path) -> list[dict]:
    return [r for r in map(json.loads, path.read_text().splitlines()) if r.get("kind") == "comm"]


def two_gpu(folder: Path) -> None:
    print("all-reduce busbw (GB/s), float32, 2 ranks; nccl-tests = reference figures on this machine kind")
    print(summary.mode_table(_records(folder / "allreduce.jsonl"), "all_reduce",
                             summary.NCCL_TESTS_H200X2_ALL_REDUCE, ("graph", "events", "wall")))
    print("\nall-to-all busbw (GB/s), float32, 2 ranks (reference: the plain loop, column 'wall')")
    print(summary.mode_table(_records(folder / "alltoall.jsonl"), "all_to_all", {}, ("graph", "events", "wall")))


def scaling(folder: Path) -> None:
    by_op: dict[str, dict[int, list[dict]]] = {}
    for path in sorted(folder.glob("*-w[0-9]*.jsonl")):  # comm-wN.jsonl and plainloop-wN.jsonl
        world = int(path.stem.rsplit("-w", 1)[1])
        for rec in _records(path):
            by_op.setdefault(rec["op"], {}).setdefault(world, []).append(rec)
    for op, per_world in sorted(by_op.items()):
        print(f"\n{op} busbw (GB/s) by GPU count (NVLink4 x18 peak 450 GB/s per direction)")
        print(summary.scaling_table(per_world, op, "auto", 450.0))
    if "all_reduce" in by_op:
        print("\nplain dist.all_reduce loop (in-run reference)")
        print(summary.scaling_table(by_op["all_reduce"], "all_reduce", "wall", 450.0))


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--scaling"]:
        scaling(Path(args[1]))
    else:
        two_gpu(Path(args[0] if args else "benchmarks/results/comm-h200x2-2026-11-30"))
