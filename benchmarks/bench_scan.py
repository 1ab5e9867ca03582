"""Scan throughput: generate a tree of >= 1,000,000 lines of mixed CUDA/C++/Python and scan it.

    python benchmarks/bench_scan.py [--lines 1000000] [--jobs 1 2] [--report text|json|none] [--keep DIR]

Prints lines/s and peak memory (this process plus the largest worker, ru_maxrss) per --jobs value, and the
CPU seconds of this process (the serial part: walk, merge, assessment, report) and of the workers. Each run
also renders the report as ``cuda2rocm scan`` does (``--report``, default text: the CLI's default format,
whose findings tables the workers render too); ``none`` times the library call alone.
Mix (by lines): 20% CUDA (.cu, kernels + runtime/cuBLAS calls), 40% C++ (1 file in 4 uses CUDA),
40% Python (1 file in 4 touches torch.cuda). Targets: >= 200,000 lines/s with --jobs 2, < 1 GB.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import tempfile
import time
from pathlib import Path

CU = """#include <cuda_runtime.h>
#include <cublas_v2.h>
// kernel {i}: scales a vector; the word cuda in a comment
__global__ void scale_{i}(float* x, float a, int n) {{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) {{ x[t] = a * x[t]; }}
}}
__global__ void add_{i}(const float* x, float* y, int n) {{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = t; k < n; k += blockDim.x * gridDim.x) {{ y[k] += x[k]; }}
}}
void launch_{i}(float* x, float* y, int n, cudaStream_t s, cublasHandle_t h) {{
    scale_{i}<<<(n + 255) / 256, 256, 0, s>>>(x, 2.0f, n);
    add_{i}<<<(n + 255) / 256, 256, 0, s>>>(x, y, n);
    float alpha = 1.0f;
    cublasSaxpy(h, n, &alpha, x, 1, y, 1);
    cudaStreamSynchronize(s);
}}
"""
CPP = """// plain host code {i}
#include <vector>
#include <string>
namespace app {{
int work_{i}(const std::vector<int>& v) {{
    int total = 0;
    for (int x : v) {{ total += x * {i}; }}
    return total;
}}
std::string name_{i}() {{ return "module {i}"; }}
}}  // namespace app
"""
CPP_CUDA = """#include <cuda_runtime.h>
void copy_{i}(float* d, const float* h, size_t n) {{
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
}}
"""
PY = '''"""Module {i}."""
import math


def f_{i}(x: float) -> float:
    # plain python, mentions nothing of interest
    return math.sqrt(x) + {i}


class C{i}:
    def run(self, values: list[float]) -> float:
        return sum(f_{i}(v) for v in values)
'''
PY_TORCH = """import torch


def step_{i}(model, batch):
    out = model(batch.cuda())
    torch.cuda.synchronize()
    return out
"""


def generate(root: Path, target_lines: int) -> int:
    """Write files until ``target_lines`` lines exist; returns the number of lines written."""
    lines = 0
    n = 0
    while lines < target_lines:
        d = root / f"pkg{n // 200:03d}"
        d.mkdir(parents=True, exist_ok=True)
        for kind, body, ext, reps in (("cu", CU, ".cu", 1), ("cpp", CPP, ".cpp", 4), ("py", PY, ".py", 6)):
            text = "".join(body.format(i=n * 10 + r) for r in range(reps * 6))
            if kind == "cpp" and n % 4 == 0:
                text = CPP_CUDA.format(i=n) + text
            if kind == "py" and n % 4 == 0:
                text = PY_TORCH.format(i=n) + text
            (d / f"{kind}_{n}{ext}").write_text(text)
            lines += text.count("\n")
        n += 1
    return lines


def peak_mb() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, kids) / 1024


_SPIN = "sum(range(40_000_000))"


def machine_speedup(jobs: int, rounds: int = 3) -> float:
    """How much faster ``jobs`` copies of a pure-CPU Python loop finish together than one after another on this
    machine (median of ``rounds``): the ceiling any ``--jobs`` speed-up measured here can reach."""
    import statistics
    import subprocess
    import sys

    ratios = []
    for _ in range(rounds):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-S", "-c", _SPIN], check=True)
        one = time.perf_counter() - t
        t = time.perf_counter()
        procs = [subprocess.Popen([sys.executable, "-S", "-c", _SPIN]) for _ in range(jobs)]
        for proc in procs:
            proc.wait()
        together = time.perf_counter() - t
        ratios.append(jobs * one / together)
    return statistics.median(ratios)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=1_000_000)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--keep", type=Path, help="generate into this directory and keep it (reused when it exists)")
    ap.add_argument("--report", choices=("text", "json", "none"), default="text",
                    help="render this report after the scan, inside the timing (default: text, as the CLI)")
    ap.add_argument("--ceiling", action="store_true",
                    help="also measure the machine's own speed-up for the largest --jobs (a pure-CPU loop run that "
                         "many times at once) and print the scan's speed-up against it")
    args = ap.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="c2r-bench-"))
    t0 = time.perf_counter()
    written = generate(root, args.lines) if not (args.keep and args.keep.is_dir() and any(root.iterdir())) else 0
    print(f"generated {written:,} lines in {time.perf_counter() - t0:.1f} s under {root}")
    from cuda2rocm.report import render
    from cuda2rocm.scan.api import scan

    print("| jobs | report | files | lines | seconds | lines/s | findings | parent CPU s | workers CPU s | "
          "peak RSS (MB) |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    seconds: dict[int, float] = {}
    for jobs in args.jobs:
        own, kids = os.times()[:2], os.times()[2:4]
        t = time.perf_counter()
        result = scan(root, jobs=jobs)
        if args.report != "none":
            render(result, args.report, jobs=jobs)
        secs = time.perf_counter() - t
        own_cpu = sum(os.times()[:2]) - sum(own)
        kids_cpu = sum(os.times()[2:4]) - sum(kids)
        lines = int(result.stats["lines"])
        seconds[jobs] = secs
        print(f"| {jobs} | {args.report} | {int(result.stats['files']):,} | {lines:,} | {secs:.2f} | "
              f"{lines / secs:,.0f} | {len(result.findings):,} | {own_cpu:.2f} | {kids_cpu:.2f} | {peak_mb():.0f} |")
    top = max(args.jobs)
    if args.ceiling and 1 in seconds and top > 1:
        machine = machine_speedup(top)
        scan_speedup = seconds[1] / seconds[top]
        print(f"\n--jobs {top} speed-up: scan {scan_speedup:.2f}x; this machine's own for {top} pure-CPU processes "
              f"{machine:.2f}x; scan reaches {scan_speedup / machine:.0%} of it")
    if not args.keep:
        shutil.rmtree(root)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
