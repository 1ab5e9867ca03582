"""Statistics like hipify-perl's ``--print-stats`` as text, JSON and CSV (values: :mod:`cuda2rocm.results.stats`)."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping

from cuda2rocm.results.stats import FileStats, totals


def _by_library(converted: Mapping[tuple[str, str], int]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for (library, kind), n in sorted(converted.items()):
        out.setdefault(library, {})[kind] = n
    return out


def to_json(files: list[FileStats], wall_seconds: float) -> str:
    t = totals(files)
    doc = {
        "files": [_file_dict(f) for f in files],
        "totals": {
            "files": t.files, "by_status": t.by_status, "lines": t.lines, "converted": t.converted_total,
            "by_library": _by_library(t.converted), "unsupported": t.unsupported, "findings": t.findings,
            "seconds": round(t.seconds, 6), "wall_seconds": round(wall_seconds, 6),
        },
    }
    return json.dumps(doc, indent=2, sort_keys=False)


def _file_dict(f: FileStats) -> dict[str, object]:
    return {
        "path": f.path, "status": f.status, "lines": f.lines, "converted": f.converted_total,
        "by_library": _by_library(f.converted), "unsupported": f.unsupported, "findings": f.findings,
        "seconds": round(f.seconds, 6),
    }


CSV_FIELDS = ("path", "status", "lines", "library", "kind", "converted", "unsupported", "findings", "seconds")


def to_csv(files: list[FileStats]) -> str:
    """One row per (file, library, kind), plus one summary row per file (library ``*``) and a TOTAL row."""
    import csv

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_FIELDS)
    for f in files:
        for (library, kind), n in sorted(f.converted.items()):
            w.writerow([f.path, f.status, "", library, kind, n, "", "", ""])
        w.writerow([f.path, f.status, f.lines, "*", "*", f.converted_total, f.unsupported, f.findings,
                    f"{f.seconds:.6f}"])
    t = totals(files)
    w.writerow(["TOTAL", "", t.lines, "*", "*", t.converted_total, t.unsupported, t.findings, f"{t.seconds:.6f}"])
    return buf.getvalue()


def to_text(files: list[FileStats], wall_seconds: float) -> str:
    lines: list[str] = []
    for f in files:
        lines.append(f"[{f.status}] {f.path}: {f.converted_total} refs converted, {f.unsupported} unsupported, "
                     f"{f.findings} findings, {f.lines} lines, {f.seconds * 1000:.1f} ms")
    t = totals(files)
    lines.append(f"TOTAL {t.files} files ({_status_line(t.by_status)}), {t.lines} lines, {t.converted_total} refs "
                 f"converted, {t.unsupported} unsupported, {t.findings} findings, {wall_seconds:.3f} s")
    for library, kinds in _by_library(t.converted).items():
        detail = ", ".join(f"{k} {n}" for k, n in kinds.items())
        lines.append(f"  {library}: {sum(kinds.values())} ({detail})")
    return "\n".join(lines) + "\n"


def _status_line(by_status: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {s}" for s, n in sorted(by_status.items())) or "none"
