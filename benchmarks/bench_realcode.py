"""``cuda2rocm convert`` of a tree with the token density of real CUDA (not the generated kernels of
``bench_convert.py``): the test corpus' programs (``tests/corpus/cuda``), the hazard corpora (``tests/hazards``)
and the examples (``examples/``), copied side by side until the tree holds about ``--lines`` lines.

Run: ``python3 benchmarks/bench_realcode.py [--lines 300000] [--jobs 1 2] [--repeat 3]``. Each run is its own
process (``--jobs 1`` translates in it; ``--jobs N`` in N workers), the runs interleaved across ``--jobs`` values;
prints a table of medians: wall seconds, lines/s, CPU seconds of the process and of its workers, peak RSS of
the process and of the largest worker. The outputs of every ``--jobs`` value are compared (same bytes).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("tests/corpus/cuda", "tests/hazards", "examples")
SUFFIXES = (".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hxx", ".inl")

_CHILD = """
import json, os, resource, sys, time
from pathlib import Path
from cuda2rocm.translate.api import convert
from cuda2rocm.translate.options import Options
started = time.perf_counter()
report = convert(Path(sys.argv[1]), Path(sys.argv[2]), Options(jobs=int(sys.argv[3])))
wall = time.perf_counter() - started
t = os.times()
print(json.dumps({"wall": wall, "cpu": t[0] + t[1], "workers_cpu": t[2] + t[3], "files": len(report.files),
                  "failed": len(report.failed),
                  "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "worker_rss_mib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
"""


def corpus() -> list[tuple[str, str]]:
    """(relative path, text) of every C/C++/CUDA source of :data:`SOURCES` (tracked or not, read as UTF-8)."""
    out = []
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in SUFFIXES and path.is_file() and not path.is_symlink():
                try:
                    out.append((str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")))
                except UnicodeDecodeError:
                    continue
    return out


def replicate(dest: Path, target_lines: int) -> tuple[int, int, int]:
    """Copies of the corpus under ``dest/copyNNN/`` until ``target_lines``; (files, lines, bytes) written."""
    files = lines = size = 0
    sources = corpus()
    copy = 0
    while lines < target_lines:
        for rel, text in sources:
            path = dest / f"copy{copy:03d}" / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            files += 1
            lines += text.count("\n")
            size += len(text.encode("utf-8"))
        copy += 1
    return files, lines, size


def tree_digest(root: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lines", type=int, default=300_000)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=3, help="runs of each --jobs value (medians reported)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="c2r-bench-realcode-"))
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    try:
        files, lines, size = replicate(tmp / "src", args.lines)
        print(f"{files:,} files, {lines:,} lines, {size / 2**20:.1f} MiB (copies of {', '.join(SOURCES)})")
        runs: dict[int, list[dict[str, float]]] = {j: [] for j in args.jobs}
        digests: dict[int, str] = {}
        for _ in range(args.repeat):
            for jobs in args.jobs:
                out = tmp / f"out{jobs}"
                shutil.rmtree(out, ignore_errors=True)
                done = subprocess.run([sys.executable, "-c", _CHILD, str(tmp / "src"), str(out), str(jobs)],
                                      env=env, capture_output=True, text=True, check=True)
                runs[jobs].append(json.loads(done.stdout.splitlines()[-1]))
                digests[jobs] = tree_digest(out)
        head = ("jobs", "wall s", "lines/s", "CPU s", "workers CPU s", "peak RSS MiB", "worker peak RSS MiB")
        rows = []
        for jobs, rs in runs.items():
            med = {k: statistics.median(r[k] for r in rs) for k in rs[0]}
            rows.append((str(jobs), f"{med['wall']:.2f}", f"{lines / med['wall']:,.0f}", f"{med['cpu']:.2f}",
                         f"{med['workers_cpu']:.2f}", f"{med['rss_mib']:.0f}",
                         f"{med['worker_rss_mib']:.0f}" if jobs > 1 else "-"))
            assert all(r["files"] == files and not r["failed"] for r in rs), rs
        widths = [max(len(h), *(len(r[k]) for r in rows)) for k, h in enumerate(head)]
        print(f"medians of {args.repeat} interleaved runs")
        print(" | ".join(h.rjust(w) for h, w in zip(head, widths, strict=True)))
        print("-|-".join("-" * w for w in widths))
        for r in rows:
            print(" | ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)))
        print("outputs identical across --jobs:", "yes" if len(set(digests.values())) == 1 else "NO")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
