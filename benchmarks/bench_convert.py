"""Throughput of ``cuda2rocm convert`` on a generated CUDA tree (target: >= 100,000 lines/s with --jobs 2).

Run: ``python3 benchmarks/bench_convert.py [--lines 500000] [--jobs 2]``. Prints a table: lines, files,
wall seconds, lines/s and peak resident memory of the parent and of the worker processes.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import tempfile
import time
from pathlib import Path

from cuda2rocm.translate.api import convert
from cuda2rocm.translate.options import Options

KERNEL_FILE = """// Generated benchmark unit {i}: cudaMalloc in comments must stay.
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include "common_{g}.cuh"

/* A block comment mentioning cudaMemcpy and __shfl_down_sync. */
__global__ void saxpy_{i}(int n, float a, const float* x, float* y) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {{
        y[i] = a * x[i] + y[i];
    }}
}}

__device__ float warp_sum_{i}(float v) {{
    for (int offset = 16; offset > 0; offset /= 2) {{
        v += __shfl_down_sync(0xffffffff, v, offset);
    }}
    return v;
}}

int run_{i}(cublasHandle_t handle, int n) {{
    float *x = nullptr, *y = nullptr;
    CUDA_CHECK(cudaMalloc(&x, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&y, n * sizeof(float)));
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start, stream);
    saxpy_{i}<<<(n + 255) / 256, 256, 0, stream>>>(n, 2.0f, x, y);
    const float alpha = 1.0f;
    cublasSetStream(handle, stream);
    cublasSaxpy(handle, n, &alpha, x, 1, y, 1);
    cudaEventRecord(stop, stream);
    cudaStreamSynchronize(stream);
    float ms = 0.0f;
    cudaEventElapsedTime(&ms, start, stop);
    const char* label = "cudaEventElapsedTime";
    printf("%s %f\\n", label, ms);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaStreamDestroy(stream);
    cudaFree(x);
    cudaFree(y);
    return 0;
}}

"""

HEADER_FILE = """#ifndef COMMON_{g}_CUH
#define COMMON_{g}_CUH
#include <cstdio>
#define CUDA_CHECK(call) do {{ cudaError_t e = (call); if (e != cudaSuccess) \\
    printf("CUDA error %s\\n", cudaGetErrorString(e)); }} while (0)
#endif
"""


def generate(root: Path, target_lines: int, per_file: int = 12) -> tuple[int, int]:
    """Write a tree of CUDA files (``per_file`` units each, 20 per directory); returns (lines, files)."""
    lines = files = 0
    i = 0
    while lines < target_lines:
        g = files // 20
        d = root / f"mod{g:03d}"
        d.mkdir(parents=True, exist_ok=True)
        if not (d / f"common_{g}.cuh").exists():
            text = HEADER_FILE.format(g=g)
            (d / f"common_{g}.cuh").write_text(text)
            lines, files = lines + text.count("\n"), files + 1
        text = "".join(KERNEL_FILE.format(i=i + k, g=g) for k in range(per_file))
        (d / f"unit{i:06d}.cu").write_text(text)
        lines, files, i = lines + text.count("\n"), files + 1, i + per_file
    return lines, files


def peak_mib(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--lines", type=int, default=500_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--target-rocm", default="5.2")
    ap.add_argument("--hazards", action="store_true", help="also time a run with the hazard analysis on")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="c2r-bench-"))
    try:
        lines, files = generate(tmp / "src", args.lines)
        options = Options(target_rocm=args.target_rocm, jobs=args.jobs, hazards=False)
        started = time.perf_counter()
        report = convert(tmp / "src", tmp / "out", options)
        wall = time.perf_counter() - started
        wall_hz = 0.0
        if args.hazards:
            started = time.perf_counter()
            convert(tmp / "src", None, Options(target_rocm=args.target_rocm, jobs=args.jobs))
            wall_hz = time.perf_counter() - started
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    assert not report.failed, report.failed[:3]
    rows = [
        ("lines", f"{lines:,}"), ("files", f"{files:,}"), ("jobs", str(args.jobs)),
        ("translate+write, hazards off: wall s", f"{wall:.2f}"), ("  lines/s", f"{lines / wall:,.0f}"),
    ]
    if wall_hz:
        rows += [("translate only, hazards on: wall s", f"{wall_hz:.2f}"), ("  lines/s", f"{lines / wall_hz:,.0f}")]
    rows += [
        ("peak RSS parent MiB", f"{peak_mib(resource.RUSAGE_SELF):.0f}"),
        ("peak RSS largest worker MiB", f"{peak_mib(resource.RUSAGE_CHILDREN):.0f}"),
    ]
    width = max(len(k) for k, _ in rows)
    print(f"{'metric':<{width}} | value")
    print(f"{'-' * width}-|------")
    for k, v in rows:
        print(f"{k:<{width}} | {v}")


if __name__ == "__main__":
    main()
