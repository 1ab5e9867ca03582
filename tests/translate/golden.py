"""Shared helpers for the golden-file tests: fixtures, their options line, and translation."""

from __future__ import annotations

import shlex
from pathlib import Path

from cuda2rocm.model import FileResult, Translated
from cuda2rocm.translate.api import convert_source
from cuda2rocm.translate.options import Options

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
MARK = "cuda2rocm-options:"


def inputs() -> list[Path]:
    return sorted(p for p in GOLDEN.rglob("*") if p.is_file() and p.suffix != ".hip")


def expected_path(src: Path) -> Path:
    return src.with_suffix(".hip")


def read(path: Path) -> str:
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def options_for(text: str) -> Options:
    """Options from a ``// cuda2rocm-options: --flag value`` first line (CLI spelling)."""
    first = text.split("\n", 1)[0]
    if MARK not in first:
        return Options()
    words = shlex.split(first.split(MARK, 1)[1])
    kwargs: dict[str, object] = {}
    flags = {"--roc": "roc", "--experimental": "experimental", "--use-hip-data-types": "use_hip_data_types",
             "--fix-hazards": "fix_hazards"}
    values = {"--target-rocm": "target_rocm", "--launch-syntax": "launch_syntax"}
    it = iter(words)
    for w in it:
        if w in flags:
            kwargs[flags[w]] = True
        else:
            kwargs[values[w]] = next(it)
    return Options(**kwargs)  # type: ignore[arg-type]


def translate(path: Path, text: str | None = None) -> FileResult:
    text = read(path) if text is None else text
    return convert_source(text, str(path.relative_to(GOLDEN)), options_for(text))


def output_text(result: FileResult, original: str) -> str:
    return result.text if isinstance(result, Translated) else original
