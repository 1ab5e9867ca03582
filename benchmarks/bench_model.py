"""The project model (include graph + per-file facts cache), before and after, on a multi-file CUDA tree.

Run: ``python3 benchmarks/bench_model.py [--files 1000] [--repeat 3] --before /tmp/c2r-before/src
--after src [--seed 9] [--keep DIR]``. ``--before`` and ``--after`` are the ``src`` folders of two checkouts
(e.g. ``git worktree add /tmp/c2r-before 5d1fdd4``). Each run is a whole process,
``env PYTHONPATH=<side> python3 -m cuda2rocm scan TREE --format json -o /dev/null --force -q --jobs 1`` and
``... convert TREE -o OUT -q --force --jobs 1`` (a fresh OUT each run), timed wall-clock with its peak RSS
from ``wait4``. A pair is before, after (cold: ``CUDA2ROCM_CACHE_DIR`` a fresh empty folder), then after again
on the same unchanged tree with that cache filled (warm); pairs run one after another, scan first, then
convert. Prints a Markdown table: medians, the after/before ratio pair by pair (median, min-max), the warm/cold
ratio, peak RSS, and the load average (1 min) seen before the runs.

The tree (seeded, deterministic): about 1 header per 5 sources. Shared headers in ``common/`` (``#define
WARP_SIZE 32``, block sizes under ``#ifdef``, a check macro, ``constexpr`` tile sizes, lane/warp macros), one
``.cuh`` or ``.h`` per module folder (``constexpr`` tile and block sizes, mask macros under ``#if WARP_SIZE``,
a ``__shfl_xor_sync`` warp reduction) and ``.cu`` sources that include their module's header, the shared
ones and at times a neighbour's: kernels with shuffles, ``__syncthreads``, ``__shared__`` arrays sized by
header constants, host code with ``cudaMalloc``/``cudaMemcpy`` and ``<<<>>>`` launches.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMON = {
    "common/config.h": """#pragma once
// build-wide configuration
#define WARP_SIZE 32
#define LOG_WARP_SIZE 5
#ifdef USE_BIG_BLOCKS
#define DEFAULT_BLOCK 1024
#else
#define DEFAULT_BLOCK 256
#endif
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
""",
    "common/check.h": """#ifndef COMMON_CHECK_H
#define COMMON_CHECK_H
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define CUDA_CHECK(call)                                                        \\
    do {                                                                        \\
        cudaError_t err_ = (call);                                              \\
        if (err_ != cudaSuccess) {                                              \\
            std::fprintf(stderr, "%s:%d %s\\n", __FILE__, __LINE__,              \\
                         cudaGetErrorString(err_));                             \\
            std::exit(1);                                                       \\
        }                                                                       \\
    } while (0)
#endif
""",
    "common/tiles.cuh": """#pragma once
#include "config.h"
constexpr int TILE_DIM = 32;
constexpr int BLOCK_ROWS = 8;
constexpr int WARPS_PER_BLOCK = DEFAULT_BLOCK / WARP_SIZE;
""",
    "common/warp.cuh": """#pragma once
#include "config.h"
#define LANE_ID() (threadIdx.x & (WARP_SIZE - 1))
#define WARP_ID() (threadIdx.x >> LOG_WARP_SIZE)
#define ALL_LANES 0xffffffffu
__device__ __forceinline__ float warp_sum(float v) {
    for (int o = WARP_SIZE / 2; o > 0; o >>= 1) {
        v += __shfl_xor_sync(ALL_LANES, v, o);
    }
    return v;
}
""",
}

MODULE_CUH = """#pragma once
// module {k}: tile and block sizes, masks, a warp reduction
#include "common/config.h"
#ifndef MOD{k}_TILE
#define MOD{k}_TILE {tile}
#endif
constexpr int kTile{k} = MOD{k}_TILE;
constexpr int kBlock{k} = {block};
constexpr int kWarps{k} = kBlock{k} / WARP_SIZE;
#define IDX{k}(r, c) ((r) * kTile{k} + (c))
#if WARP_SIZE == 32
#define MASK{k} 0xffffffffu
#else
#define MASK{k} 0xffffffffffffffffull
#endif
__device__ __forceinline__ float reduce{k}(float v) {{
    for (int off = WARP_SIZE / 2; off > 0; off /= 2) {{
        v += __shfl_xor_sync(MASK{k}, v, off);
    }}
    return v;
}}
"""

MODULE_H = """#ifndef MOD{k}_H
#define MOD{k}_H
// module {k}: host-side sizes and declarations
#include <cstddef>
#include "common/config.h"
#define MOD{k}_BLOCK {block}
#define MOD{k}_TILE {tile}
constexpr int kTile{k} = MOD{k}_TILE;
constexpr int kBlock{k} = MOD{k}_BLOCK;
constexpr int kWarps{k} = kBlock{k} / WARP_SIZE;
#define IDX{k}(r, c) ((r) * kTile{k} + (c))
#define MASK{k} 0xffffffffu
void module{k}_run(float* host, std::size_t n);
#endif
"""

HEAD = """// source {i} of module {k}
#include <cuda_runtime.h>
#include <cstdio>
#include "common/check.h"
#include "common/warp.cuh"
#include "{header}"
"""

KERNELS = (
    """
__global__ void block_sum_{i}(const float* in, float* out, int n) {{
    __shared__ float partial[kWarps{k}];
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float v = t < n ? in[t] : 0.0f;
    v = warp_sum(v);
    if (LANE_ID() == 0) {{
        partial[WARP_ID()] = v;
    }}
    __syncthreads();
    if (threadIdx.x < WARP_SIZE) {{
        v = threadIdx.x < kWarps{k} ? partial[threadIdx.x] : 0.0f;
        for (int off = WARP_SIZE / 2; off > 0; off >>= 1) {{
            v += __shfl_xor_sync(MASK{k}, v, off);
        }}
        if (threadIdx.x == 0) {{
            atomicAdd(out, v);
        }}
    }}
}}
""",
    """
__global__ void transpose_{i}(float* out, const float* in, int width, int height) {{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {{
        if (x < width && y + j < height) {{
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
        }}
    }}
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {{
        if (x < height && y + j < width) {{
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
        }}
    }}
}}
""",
    """
__global__ void stencil_{i}(const float* in, float* out, int n) {{
    __shared__ float buf[kTile{k} + 2][kTile{k} + 2];
    int r = blockIdx.y * kTile{k} + threadIdx.y;
    int c = blockIdx.x * kTile{k} + threadIdx.x;
    if (r < n && c < n) {{
        buf[threadIdx.y + 1][threadIdx.x + 1] = in[r * n + c];
    }}
    __syncthreads();
    if (r > 0 && c > 0 && r + 1 < n && c + 1 < n) {{
        float s = buf[threadIdx.y][threadIdx.x + 1] + buf[threadIdx.y + 2][threadIdx.x + 1]
                + buf[threadIdx.y + 1][threadIdx.x] + buf[threadIdx.y + 1][threadIdx.x + 2];
        out[IDX{k}(threadIdx.y, threadIdx.x) + blockIdx.x] = {coef}f * s;
    }}
}}
""",
    """
__global__ void vote_{i}(const int* flags, int* counts, int n) {{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned ballot = __ballot_sync(MASK{k}, t < n && flags[t] != 0);
    int lane = threadIdx.x % WARP_SIZE;
    int mine = t < n ? flags[t] : 0;
    int other = __shfl_xor_sync(MASK{k}, mine, 1);
    if (lane == 0) {{
        counts[t / WARP_SIZE] = __popc(ballot) + other;
    }}
}}
""",
    """
__global__ void scale_{i}(float* x, float a, int n) {{
    for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < n; t += blockDim.x * gridDim.x) {{
        x[t] = a * x[t] + {coef}f;
    }}
}}
""",
)

LAUNCH = (
    "    block_sum_{i}<<<CEIL_DIV(n, kBlock{k}), kBlock{k}, 0, stream>>>(d_in, d_out, n);\n",
    "    transpose_{i}<<<dim3(CEIL_DIV(side, TILE_DIM), CEIL_DIV(side, TILE_DIM)), dim3(TILE_DIM, BLOCK_ROWS)>>>"
    "(d_out, d_in, side, side);\n",
    "    stencil_{i}<<<dim3(CEIL_DIV(side, kTile{k}), CEIL_DIV(side, kTile{k})), dim3(kTile{k}, kTile{k}), 0, "
    "stream>>>(d_in, d_out, side);\n",
    "    vote_{i}<<<CEIL_DIV(n, {block}), {block}>>>(d_flags, d_counts, n);\n",
    "    scale_{i}<<<{grid}, DEFAULT_BLOCK, 0, stream>>>(d_in, {coef}f, n);\n",
)

HOST = """
int run_{i}(float* host, int n) {{
    float* d_in = nullptr;
    float* d_out = nullptr;
    int* d_flags = nullptr;
    int* d_counts = nullptr;
    int side = {side};
    size_t bytes = static_cast<size_t>(n) * sizeof(float);
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    CUDA_CHECK(cudaMalloc(&d_in, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));
    CUDA_CHECK(cudaMalloc(&d_flags, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_counts, CEIL_DIV(n, WARP_SIZE) * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_in, host, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_out, 0, bytes));
{launches}    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaStreamSynchronize(stream));
    CUDA_CHECK(cudaMemcpy(host, d_out, bytes, cudaMemcpyDeviceToHost));
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_flags);
    cudaFree(d_counts);
    cudaStreamDestroy(stream);
    return 0;
}}
"""


def generate(root: Path, files: int, seed: int = 9) -> tuple[int, int, int]:
    """Write ``files`` files under ``root`` (same seed, same tree); returns (sources, headers, lines)."""
    rng = random.Random(seed)
    n_headers = max(len(COMMON) + 1, files // 6)
    modules = n_headers - len(COMMON)
    n_sources = files - n_headers
    lines = 0

    def write(rel: str, text: str) -> None:
        nonlocal lines
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        lines += text.count("\n")

    for rel, text in COMMON.items():
        write(rel, text)
    headers = []
    for k in range(modules):
        ext = ".cuh" if rng.random() < 0.7 else ".h"
        body = MODULE_CUH if ext == ".cuh" else MODULE_H
        name = f"mod{k:03d}/mod{k:03d}{ext}"
        headers.append(name)
        write(name, body.format(k=k, tile=rng.choice((8, 16, 32)), block=rng.choice((128, 256, 512))))
    for i in range(n_sources):
        k = i % modules
        text = HEAD.format(i=i, k=k, header=headers[k].split("/")[1])
        if rng.random() < 0.4:
            text += '#include "common/tiles.cuh"\n'
        if rng.random() < 0.25:
            text += f'#include "../{headers[rng.randrange(modules)]}"\n'
        if "tiles.cuh" not in text:
            text += "constexpr int TILE_DIM = 32;\nconstexpr int BLOCK_ROWS = 8;\n"
        chosen = sorted(rng.sample(range(len(KERNELS)), rng.randint(2, 4)))
        fields = {"i": i, "k": k, "coef": rng.choice(("0.25", "0.5", "1.5")), "block": rng.choice((64, 128, 256)),
                  "grid": rng.choice((32, 64, 120)), "side": rng.choice((64, 128, 256))}
        text += "".join(KERNELS[c].format(**fields) for c in chosen)
        text += HOST.format(launches="".join(LAUNCH[c].format(**fields) for c in chosen), **fields)
        write(f"mod{k:03d}/src{i:04d}.cu", text)
    return n_sources, n_headers, lines


def run_once(side: str, argv: list[str], cache: Path) -> tuple[float, float, float, int, float]:
    """One whole process of ``python3 -m cuda2rocm ARGV`` on ``side``; (wall s, peak RSS MiB, load, exit, CPU s:
    user + system, from ``wait4``: on a shared machine it moves far less with load than the wall time).
    Exit 0 or 1 (findings) is a run; anything else, or a traceback, stops the benchmark."""
    env = dict(os.environ, PYTHONPATH=side, CUDA2ROCM_CACHE_DIR=str(cache))
    load = os.getloadavg()[0]
    with tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "cuda2rocm", *argv], env=env, stdout=subprocess.DEVNULL,
                                stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        proc.returncode = code = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read().decode(errors="replace")
    if code not in (0, 1) or "Traceback" in stderr:
        raise SystemExit(f"{side}: cuda2rocm {' '.join(argv)} exited {code}:\n{stderr[-2000:]}")
    return wall, usage.ru_maxrss / 1024, load, code, usage.ru_utime + usage.ru_stime


def _ratio(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=1000, help="files in the tree (about 1 header per 5 sources)")
    ap.add_argument("--repeat", type=int, default=3, help="pairs per command")
    ap.add_argument("--before", required=True, type=Path, help="src folder of the before side")
    ap.add_argument("--after", required=True, type=Path, help="src folder of the after side")
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--keep", type=Path, help="generate the tree in this (new or empty) folder and keep it")
    args = ap.parse_args()
    sides = {"before": str(args.before.resolve()), "after": str(args.after.resolve())}
    work = Path(tempfile.mkdtemp(prefix="c2r-bench-model-"))
    tree = args.keep or work / "tree"
    if tree.exists() and any(tree.iterdir()):
        raise SystemExit(f"{tree} is not empty")
    sources, headers, lines = generate(tree, args.files, args.seed)
    print(f"tree: {sources} .cu sources, {headers} headers, {lines:,} lines under {tree}")
    out = work / "out"
    caches = iter(range(10**6))

    def fresh_cache() -> Path:
        path = work / f"cache{next(caches)}"
        path.mkdir()
        return path

    def command(name: str) -> list[str]:
        if name == "scan":
            return ["scan", str(tree), "--format", "json", "-o", "/dev/null", "--force", "-q", "--jobs", "1"]
        shutil.rmtree(out, ignore_errors=True)
        return ["convert", str(tree), "-o", str(out), "-q", "--force", "--jobs", "1"]

    rows = []
    loads: list[float] = []
    try:
        for name in ("scan", "convert"):
            # untimed: compiles each side's bytecode, reads the tree into the page cache, checks both sides run
            for label, side in sides.items():
                code = run_once(side, command(name), fresh_cache())[3]
                written = sum(1 for p in out.rglob("*") if p.is_file()) if name == "convert" else None
                note = f", {written} files written" if written is not None else ""
                print(f"check {name} {label}: exit {code}{note}")
            runs: dict[str, list[tuple[float, float, float, int, float]]] = {"before": [], "after": [], "warm": []}
            for _ in range(args.repeat):
                runs["before"].append(run_once(sides["before"], command(name), fresh_cache()))
                cache = fresh_cache()
                runs["after"].append(run_once(sides["after"], command(name), cache))
                runs["warm"].append(run_once(sides["after"], command(name), cache))
            wall = {k: [r[0] for r in v] for k, v in runs.items()}
            rss = {k: [r[1] for r in v] for k, v in runs.items()}
            cpu = {k: [r[4] for r in v] for k, v in runs.items()}
            loads += [r[2] for v in runs.values() for r in v]
            rows.append((name, *(f"{statistics.median(wall[k]):.2f} s" for k in ("before", "after")),
                         _ratio([a / b for a, b in zip(wall["after"], wall["before"], strict=True)]),
                         f"{statistics.median(wall['warm']):.2f} s",
                         _ratio([w / c for w, c in zip(wall["warm"], wall["after"], strict=True)]),
                         " / ".join(f"{statistics.median(rss[k]):.0f}" for k in ("before", "after", "warm")),
                         _ratio([a / b for a, b in zip(cpu["after"], cpu["before"], strict=True)]),
                         _ratio([w / c for w, c in zip(cpu["warm"], cpu["after"], strict=True)])))
            for k, v in wall.items():
                print(f"{name} {k}: " + " ".join(f"{s:.2f}" for s in v))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"\n{args.files:,} files, {args.repeat} pairs each, --jobs 1; load average (1 min) before the runs: "
          f"{min(loads):.2f}-{max(loads):.2f}, median {statistics.median(loads):.2f}\n")
    head = ("command", "before (median)", "after, cold cache (median)", "after/before per pair: median (min-max)",
            "after, warm cache (median)", "warm/cold per pair: median (min-max)",
            "peak RSS MiB before / after / warm", "CPU time after/before per pair",
            "CPU time warm/cold per pair")
    print("| " + " | ".join(head) + " |")
    print("|---|" + "---:|" * (len(head) - 1))
    for r in rows:
        print("| " + " | ".join(r) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
