"""File-count scaling of ``cuda2rocm convert`` (target: linear; 50,000 files planned in < 1 s).

Run: ``python3 benchmarks/bench_files.py [--counts 1000,5000,20000,50000] [--jobs 2]``. Each count is a tree
of tiny CUDA files (50 per directory); prints a table: files, planning seconds (walk, gitignore, de-dupe,
output paths), total convert seconds into a mirrored output tree, and files/s of each.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from cuda2rocm.translate.api import convert
from cuda2rocm.translate.options import Options
from cuda2rocm.translate.plan import plan_convert

TINY = "#include <cuda_runtime.h>\nvoid f{i}(void** p) {{ cudaMalloc(p, {i}); }}\n"


def generate(root: Path, count: int) -> None:
    for i in range(count):
        d = root / f"d{i // 50:05d}"
        if i % 50 == 0:
            d.mkdir(parents=True)
        (d / f"f{i}.cu").write_text(TINY.format(i=i))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--counts", default="1000,5000,20000,50000")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--plan-only", action="store_true", help="time planning only (no translation)")
    args = ap.parse_args()
    rows = []
    for count in (int(c) for c in args.counts.split(",")):
        tmp = Path(tempfile.mkdtemp(prefix="c2r-bench-files-"))
        try:
            generate(tmp / "src", count)
            options = Options(target_rocm="5.2", jobs=args.jobs, hazards=False)
            started = time.perf_counter()
            planned = plan_convert([tmp / "src"], tmp / "out", options)
            plan_s = time.perf_counter() - started
            assert len(planned.jobs) == count
            total_s = 0.0
            if not args.plan_only:
                started = time.perf_counter()
                report = convert(tmp / "src", tmp / "out", options)
                total_s = time.perf_counter() - started
                assert len(report.files) == count and not report.failed
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        rows.append((f"{count:,}", f"{plan_s:.3f}", f"{count / plan_s:,.0f}",
                     f"{total_s:.2f}" if total_s else "-", f"{count / total_s:,.0f}" if total_s else "-"))
    head = ("files", "plan s", "planned files/s", "convert s", "converted files/s")
    widths = [max(len(h), *(len(r[k]) for r in rows)) for k, h in enumerate(head)]
    print(" | ".join(h.rjust(w) for h, w in zip(head, widths, strict=True)))
    print("-|-".join("-" * w for w in widths))
    for r in rows:
        print(" | ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)))


if __name__ == "__main__":
    main()
