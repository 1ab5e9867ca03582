"""``cuda2rocm convert`` of a tree with the token density of real CUDA (not the generated kernels of
``bench_convert.py``): the test corpus' programs (``tests/corpus/cuda``), the hazard corpora (``tests/hazards``)
and the examples (``examples/``), copied side by side until the tree holds about ``--lines`` lines.

Run: ``python3 benchmarks/bench_realcode.py [--lines 300000] [--jobs 1 2] [--repeat 3] [--file-lines 280]``.
Each run is its own process (``--jobs 1`` translates in it; ``--jobs N`` in N workers), the runs interleaved
across ``--jobs`` values; prints a table of medians: wall seconds, lines/s, CPU seconds of the process and of its
workers, peak RSS of the process and of the largest worker. ``--file-lines 280`` joins the sources into files
of a real project's size (the corpus' own programs and snippets are 9 lines on average, so the per-file cost of
opening, planning and writing a file dominates them). The outputs of every ``--jobs`` value are compared (same bytes).
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


def grouped(sources: list[tuple[str, str]], file_lines: int) -> list[tuple[str, str]]:
    """The sources joined in order into files of at least ``file_lines`` lines each (``groupNNNN.cu``, or ``.cpp``
    when no member is CUDA): the corpus' token density at a real project's file size (0: the sources as they are)."""
    if file_lines <= 0:
        return sources
    out: list[tuple[str, str]] = []
    part: list[tuple[str, str]] = []
    count = 0
    for rel, text in sources:
        part.append((rel, text if text.endswith("\n") or not text else text + "\n"))
        count += text.count("\n")
        if count >= file_lines:
            out.append(_group(len(out), part))
            part, count = [], 0
    if part:
        out.append(_group(len(out), part))
    return out


def _group(k: int, part: list[tuple[str, str]]) -> tuple[str, str]:
    cuda = any(rel.endswith((".cu", ".cuh")) for rel, _ in part)
    return f"group{k:04d}{'.cu' if cuda else '.cpp'}", "".join(text for _, text in part)


def replicate(dest: Path, target_lines: int, file_lines: int = 0) -> tuple[int, int, int]:
    """Copies of the corpus under ``dest/copyNNN/`` until ``target_lines``; (files, lines, bytes) written.
    ``file_lines``: join the sources into files of that many lines (:func:`grouped`)."""
    files = lines = size = 0
    sources = grouped(corpus(), file_lines)
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
    ap.add_argument("--file-lines", type=int, default=0,
                    help="join the sources into files of about this many lines (0: as they are; 280: the file size "
                         "of the public benchmark suite issue 19 measured hipify-perl on, 324k lines in 1,166 files)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="c2r-bench-realcode-"))
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    try:
        files, lines, size = replicate(tmp / "src", args.lines, args.file_lines)
        joined = f", joined into files of >= {args.file_lines} lines" if args.file_lines > 0 else ""
        print(f"{files:,} files, {lines:,} lines, {size / 2**20:.1f} MiB (copies of {', '.join(SOURCES)}{joined})")
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
