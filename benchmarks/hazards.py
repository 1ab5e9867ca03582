"""Hazard analysis speed: analyze() and fixes() over the labelled corpus and over one large generated file.

    python3 benchmarks/hazards.py
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

from cuda2rocm.hazards import analyze, fixes
from cuda2rocm.source.tokens import tokenize

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "hazards" / "corpus"
KERNELS = ROOT / "tests" / "hazards" / "kernels"


def _time(fn: Callable[[], object], repeat: int = 5) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def _large_file(copies: int) -> str:
    """``copies`` renamed copies of the fixable kernel programs' device code: a big, realistic file."""
    parts = [p.read_text(encoding="utf-8").split("// --- host ---")[0] for p in sorted(KERNELS.glob("*.cu"))]
    out = []
    for i in range(copies):
        for j, part in enumerate(parts):
            out.append(part.replace("__global__ void ", f"__global__ void g{i}_{j}_")
                       .replace("__device__ float warp_sum", f"__device__ float warp_sum{i}_{j}")
                       .replace("warp_sum(", f"warp_sum{i}_{j}("))
    return "\n".join(out)


def main() -> int:
    snippets = [p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.cu"))]
    rows = []
    corpus_bytes = sum(len(s) for s in snippets)
    t = _time(lambda: [analyze(tokenize(s), s, "c.cu") for s in snippets])
    rows.append((f"analyze: corpus, {len(snippets)} snippets", corpus_bytes, t))
    for copies in (10, 50, 100):
        big = _large_file(copies)
        toks = tokenize(big)
        kernels = copies * len(list(KERNELS.glob("*.cu")))
        rows.append((f"analyze: one file, {kernels} kernels", len(big),
                     _time(lambda t=toks, b=big: analyze(t, b, "b.cu"), 3)))
        rows.append((f"fixes:   one file, {kernels} kernels", len(big),
                     _time(lambda t=toks, b=big: fixes(t, b, "b.cu"), 3)))
    print(f"| {'case':<34} | {'bytes':>8} | {'median s':>9} | {'KB/s':>8} |")
    print(f"| {'-' * 34} | {'-' * 8}:| {'-' * 9}:| {'-' * 8}:|")
    for name, size, secs in rows:
        print(f"| {name:<34} | {size:>8} | {secs:>9.3f} | {size / 1024 / secs:>8.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
