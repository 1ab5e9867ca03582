"""``cuda2rocm convert`` on single big files (target: linear in size, a 20 MB file in < 10 s, memory < 10x).

Run: ``python3 benchmarks/bench_sizes.py [--sizes 1,8,20] [--hazards]``. Each size is a generated ``.cu`` of
that many MB (the kernel units of ``bench_convert.py`` repeated) translated in its own process, so that peak
memory is the file's own. Prints a table: size, lines, wall seconds, MB/s, peak RSS and RSS per input byte.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_convert import KERNEL_FILE

_CHILD = """
import json, resource, sys, time
from pathlib import Path
from cuda2rocm.translate.api import convert
from cuda2rocm.translate.options import Options
started = time.perf_counter()
report = convert(Path(sys.argv[1]), Path(sys.argv[2]), Options(target_rocm="5.2", jobs=1,
                 hazards=sys.argv[3] == "1"))
wall = time.perf_counter() - started
assert not report.failed, report.failed[:1]
print(json.dumps({"wall": wall, "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def generate(path: Path, megabytes: float) -> int:
    """Write a .cu of about ``megabytes`` MB; returns its line count."""
    target = int(megabytes * 2**20)
    parts: list[str] = []
    size = i = 0
    while size < target:
        unit = KERNEL_FILE.format(i=i, g=i % 50)
        parts.append(unit)
        size += len(unit)
        i += 1
    text = "".join(parts)
    path.write_text(text)
    return text.count("\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="1,8,20", help="comma-separated sizes in MB")
    ap.add_argument("--hazards", action="store_true", help="run the hazard analysis too (convert's default)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="c2r-bench-sizes-"))
    rows = []
    try:
        for mb in (float(s) for s in args.sizes.split(",")):
            src = tmp / f"big{mb:g}.cu"
            lines = generate(src, mb)
            started = time.perf_counter()
            out = subprocess.run([sys.executable, "-c", _CHILD, str(src), str(tmp / f"big{mb:g}.hip"),
                                  "1" if args.hazards else "0"], capture_output=True, text=True, check=True)
            total = time.perf_counter() - started
            child = json.loads(out.stdout)
            rows.append((f"{mb:g}", f"{lines:,}", f"{child['wall']:.2f}", f"{total:.2f}",
                         f"{mb / child['wall']:.2f}", f"{child['rss_mib']:.0f}",
                         f"{child['rss_mib'] / mb:.0f}x"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    head = ("MB", "lines", "convert s", "process s", "MB/s", "peak RSS MiB", "RSS / input")
    widths = [max(len(h), *(len(r[k]) for r in rows)) for k, h in enumerate(head)]
    print(" | ".join(h.rjust(w) for h, w in zip(head, widths, strict=True)))
    print("-|-".join("-" * w for w in widths))
    for r in rows:
        print(" | ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)))


if __name__ == "__main__":
    main()
