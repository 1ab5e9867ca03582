"""Throughput and peak memory of ``cuda2rocm compare`` (tensor captures) on large inputs.

Usage:  python benchmarks/bench_compare.py [--gb 2] [--tensor-mb 256] [--dir DIR] [--repeat 2]

Writes two captures of ``--gb`` GB each (FP32 tensors plus a BF16 share; the candidate is the baseline
with 1e-6 relative noise) into a temporary directory, then runs the comparison in a fresh subprocess
and reports wall time, throughput (per side = GB of tensors compared; both sides = bytes read) and the
subprocess's peak RSS (VmHWM) next to 2x the largest tensor, the memory bound the design promises.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = """
import json, sys, time
from cuda2rocm.regress.compare import compare
t = time.perf_counter()
c = time.process_time()
r = compare(sys.argv[1], sys.argv[2])
dt, cpu = time.perf_counter() - t, time.process_time() - c
# VmHWM (peak RSS) is reset by exec; ru_maxrss would include the parent's peak from before the fork
hwm = next(int(l.split()[1]) * 1024 for l in open("/proc/self/status") if l.startswith("VmHWM"))
print(json.dumps({"seconds": dt, "cpu_seconds": cpu, "bytes": r.bytes_compared, "passed": r.passed,
                  "tensors": len(r.reports), "peak_rss": hwm}))
"""


def make_pair(root: Path, total_gb: float, tensor_mb: int) -> int:
    """Write base/ and cand/ captures; returns the largest tensor's size in bytes."""
    import torch

    from cuda2rocm.regress.store import write_capture
    from cuda2rocm.results.regress import Entry, Manifest

    n_tensors = max(1, math.ceil(total_gb * 1e9 / (tensor_mb * 2**20)))
    for side in ("base", "cand"):
        gen, noise = torch.Generator().manual_seed(0), torch.Generator().manual_seed(1)
        tensors = {}
        for i in range(n_tensors):
            dtype = torch.bfloat16 if i % 4 == 3 else torch.float32
            numel = tensor_mb * 2**20 // (2 if dtype == torch.bfloat16 else 4)
            x = torch.randn(numel, generator=gen)
            if side == "cand":
                x.mul_(1 + 1e-6 * torch.randn(numel, generator=noise))
            tensors[f"act/layer{i}"] = x.to(dtype)
        entries = tuple(Entry(k, "BF16" if v.dtype == torch.bfloat16 else "F32", tuple(v.shape))
                        for k, v in tensors.items())
        write_capture(root / side, Manifest(entries=entries, seed=0), tensors)
        del tensors
    return tensor_mb * 2**20


def run_child(root: Path) -> dict:
    argv = [sys.executable, "-c", CHILD, str(root / "base"), str(root / "cand")]
    return json.loads(subprocess.run(argv, check=True, capture_output=True, text=True).stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--gb", type=float, default=2.0, help="GB of tensors per side")
    ap.add_argument("--tensor-mb", type=int, default=256)
    ap.add_argument("--dir", default=None, help="where to write the captures (default: a temp dir)")
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        root = Path(tmp)
        t0 = time.perf_counter()
        largest = make_pair(root, args.gb, args.tensor_mb)
        print(f"generated 2 x {args.gb:g} GB in {time.perf_counter() - t0:.1f}s", file=sys.stderr)
        runs = [run_child(root) for _ in range(args.repeat)]
    print_table(runs, largest)
    return 0


def print_table(runs: list[dict], largest: int) -> None:
    print(f"cores: {os.cpu_count()}, load average before: {os.getloadavg()[0]:.1f}")
    print("| run | tensors | GB per side | wall s | CPU s | GB/s per side | GB/s both sides | "
          "peak RSS GiB | 2x largest tensor GiB | verdict |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for i, r in enumerate(runs, 1):
        side = r["bytes"] / 2 / 1e9
        print(f"| {i} | {r['tensors']} | {side:.2f} | {r['seconds']:.2f} | {r['cpu_seconds']:.2f} | "
              f"{side / r['seconds']:.2f} | {2 * side / r['seconds']:.2f} | {r['peak_rss'] / 2**30:.2f} | "
              f"{2 * largest / 2**30:.2f} | {'pass' if r['passed'] else 'FAIL'} |")


if __name__ == "__main__":
    raise SystemExit(main())
