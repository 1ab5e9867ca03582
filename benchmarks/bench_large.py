"""Extreme inputs (issue 31, item 11): one-line files of megabytes and a kernel with tens of thousands of findings.

Run: ``python3 benchmarks/bench_large.py [--src SRC] [--lanes 20000]``. Generates, in a temporary folder:
``table.cu`` (a 4 MB single line: a ``__device__`` table of 700,000 numbers, then a kernel), ``oneline.cu`` (a 5 MB
single-line kernel of 150,000 statements) and ``lanes.cu`` (a warp-synchronous kernel with ``--lanes`` lane
variables, one C2R-K101 finding each). Times each command as a whole process (``python3 -m cuda2rocm ...``
with ``PYTHONPATH=SRC``, default this checkout's ``src``): wall and CPU seconds and peak RSS from ``wait4``, as
``/usr/bin/time -v`` gives them. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def generate(root: Path, lanes: int) -> dict[str, Path]:
    rng = random.Random(1)
    out = {}
    for name in ("table", "oneline", "lanes"):
        (root / name).mkdir()
        out[name] = root / name
    table = ",".join(str(rng.randint(0, 99999)) for _ in range(700_000))
    (out["table"] / "table.cu").write_text("#include <cuda_runtime.h>\n__device__ const int table[] = {" + table +
                                           "};\n__global__ void k(int* o) { o[threadIdx.x] = table[threadIdx.x]; }\n")
    body = "".join(f"a[{i}]=a[{i}]*2.0f+threadIdx.x;" for i in range(150_000))
    (out["oneline"] / "oneline.cu").write_text("__global__ void k(float* a){" + body + "}")
    lines = "".join(f"  int l{i} = threadIdx.x & 31; o[l{i}] = {i};\n" for i in range(lanes))
    (out["lanes"] / "lanes.cu").write_text("__global__ void k(int* o) {\n" + lines +
                                           "  o[0] = __shfl_xor_sync(0xffffffff, o[1], 1);\n}\n")
    return out


def run(src: str, argv: list[str]) -> tuple[float, float, float, int]:
    env = dict(os.environ, PYTHONPATH=src)
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "cuda2rocm", *argv], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    return (time.perf_counter() - started, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
            os.waitstatus_to_exitcode(status))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", type=Path, default=Path(__file__).resolve().parent.parent / "src")
    ap.add_argument("--lanes", type=int, default=20_000)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="c2r-bench-large-"))
    try:
        trees = generate(work, args.lanes)
        out = work / "out"
        cases = [
            ("4 MB one-line table", ["scan", str(trees["table"]), "--format", "json", "-o", str(out / "a.json")]),
            ("4 MB one-line table", ["convert", str(trees["table"]), "-o", str(out / "a"), "-q"]),
            ("5 MB one-line kernel", ["scan", str(trees["oneline"]), "--format", "json", "-o", str(out / "b.json")]),
            ("5 MB one-line kernel", ["convert", str(trees["oneline"]), "-o", str(out / "b"), "-q"]),
            (f"{args.lanes:,} lane findings", ["scan", str(trees["lanes"]), "--format", "json", "-o",
                                               str(out / "c.json")]),
            (f"{args.lanes:,} lane findings", ["scan", str(trees["lanes"]), "-o", str(out / "c.txt")]),
            (f"{args.lanes:,} lane findings", ["scan", str(trees["lanes"]), "--all", "-o", str(out / "d.txt")]),
        ]
        print(f"load average (1 min) before: {os.getloadavg()[0]:.2f}\n")
        print("| input | command | exit | wall s | CPU s | peak RSS MiB |\n|---|---|---:|---:|---:|---:|")
        for label, argv in cases:
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir()
            wall, cpu, rss, code = run(str(args.src.resolve()), [*argv, "--force"] if argv[0] == "scan" else argv)
            shown = " ".join(a if not a.startswith(str(work)) else Path(a).name for a in argv)
            print(f"| {label} | `{shown}` | {code} | {wall:.1f} | {cpu:.1f} | {rss:.0f} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
