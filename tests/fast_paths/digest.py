"""What the scan, the hazard analysis and convert produce for the repository's sources, as plain JSON.

Speed work must not change one finding, edit or count. To prove it, run this once with the package before the
change and once after, and compare::

    git archive <commit-before> src | tar -x -C /tmp/base
    PYTHONPATH=/tmp/base/src python3 tests/fast_paths/digest.py > /tmp/before.json
    python3 tests/fast_paths/digest.py > /tmp/after.json && cmp /tmp/before.json /tmp/after.json
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SOURCE_SUFFIXES = (".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hip", ".inl")
CORPUS_DIRS = ("tests/scan/fixtures", "tests/hazards", "tests/golden", "tests/corpus", "tests/translate",
               "examples")
SCAN_ROOTS = ("tests/scan/fixtures", "tests/hazards/corpus", "tests/hazards/kernels", "tests/corpus/cuda",
              "tests/golden", "examples")
_VOLATILE_STATS = ("seconds", "lines_per_second")


def corpus_files() -> list[Path]:
    """Every tracked C/C++/CUDA source under the corpus folders."""
    listed = subprocess.run(["git", "ls-files", "--", *CORPUS_DIRS], cwd=ROOT, capture_output=True, text=True,
                            check=False).stdout.split()
    paths = [ROOT / p for p in listed] if listed else [p for d in CORPUS_DIRS for p in (ROOT / d).rglob("*")]
    return sorted(p for p in paths if p.suffix in SOURCE_SUFFIXES and p.is_file() and not p.is_symlink())


def read(path: Path) -> str:
    return path.read_bytes().decode("utf-8", errors="replace")


def hazard_digest(path: Path) -> dict[str, Any]:
    from cuda2rocm import hazards
    from cuda2rocm.source.tokens import tokenize

    text = read(path)
    tokens = tokenize(text)
    found = hazards.analyze(tokens, text, path.name, target_gpu="MI300X")
    return {"findings": [[f.rule, f.line, f.col, f.message, f.fix] for f in found],
            "fixes": [[e.start, e.end, e.replacement, e.rule] for e in hazards.fixes(tokens, text, path.name)]}


def convert_digest(path: Path) -> dict[str, Any]:
    from cuda2rocm.translate.engine import translate_text
    from cuda2rocm.translate.options import Options

    out: dict[str, Any] = {}
    for label, options in (("default", Options()), ("rocm52-fix", Options(target_rocm="5.2", fix_hazards=True))):
        outcome = translate_text(read(path), path.name, options)
        result = outcome.result
        out[label] = {
            "status": type(result).__name__,
            "text": _sha(getattr(result, "text", None)),
            "edits": [[e.start, e.end, e.replacement, e.rule] for e in getattr(result, "edits", ())],
            "findings": [[f.rule, f.line, f.col, f.message] for f in getattr(result, "findings", ())],
            "converted": sorted([list(k), v] for k, v in outcome.stats.converted.items()),
        }
    return out


def _sha(text: str | None) -> str | None:
    return None if text is None else hashlib.sha256(text.encode()).hexdigest()[:16]


def scan_digest(root: Path) -> Any:
    from cuda2rocm.report import render
    from cuda2rocm.scan.api import scan

    data = json.loads(render(scan(root), "json"))
    for key in _VOLATILE_STATS:
        data.get("stats", {}).pop(key, None)
    return _strip_volatile(data)


def _strip_volatile(data: Any) -> Any:
    """Drop timestamps and timings (they differ between two runs of the same code)."""
    if isinstance(data, dict):
        return {k: _strip_volatile(v) for k, v in data.items()
                if k not in ("generated", "generated_at", "timestamp", "seconds", "lines_per_second", "duration")}
    if isinstance(data, list):
        return [_strip_volatile(v) for v in data]
    return data


def digest() -> dict[str, Any]:
    files = corpus_files()
    rel = {p: str(p.relative_to(ROOT)) for p in files}
    return {
        "hazards": {rel[p]: hazard_digest(p) for p in files},
        "convert": {rel[p]: convert_digest(p) for p in files},
        "scan": {r: scan_digest(ROOT / r) for r in SCAN_ROOTS if (ROOT / r).is_dir()},
    }


if __name__ == "__main__":
    json.dump(digest(), sys.stdout, indent=0, sort_keys=True)
    sys.stdout.write("\n")
