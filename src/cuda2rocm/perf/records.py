"""JSON Lines in and out: atomic writes, and reads that name the file and line of every bad record."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cuda2rocm.fsio import write_text_atomic


@dataclass(frozen=True)
class Loaded:
    records: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # "file:line: message"


def _clean(value: Any) -> Any:
    """NaN/inf are not JSON: write them as null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


def dumps(record: dict[str, Any]) -> str:
    return json.dumps(_clean(record), sort_keys=True, allow_nan=False)


def write_jsonl(path: Path, records: Iterable[dict[str, Any]], *, force: bool = True) -> None:
    write_text_atomic(path, "".join(dumps(r) + "\n" for r in records), force=force)


def read_text(path: Path, max_bytes: int = 256 << 20) -> str:
    """UTF-8 text of a results file; ValueError with the file's name when it is not text or too big."""
    size = path.stat().st_size
    if size > max_bytes:
        raise ValueError(f"{path}: {size} bytes is larger than the {max_bytes}-byte limit")
    data = path.read_bytes()
    if b"\0" in data[:8192]:
        raise ValueError(f"{path}: binary file, expected text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 (byte {exc.start})") from None


def read_jsonl(path: Path) -> Loaded:
    """Every JSON object line; blank lines skipped; a bad line is a problem, the rest still loads."""
    out = Loaded()
    for number, line in enumerate(read_text(path).splitlines(), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            out.problems.append(f"{path}:{number}: not JSON ({exc.msg})")
            continue
        if isinstance(value, dict):
            out.records.append(value)
        else:
            out.problems.append(f"{path}:{number}: expected a JSON object, got {type(value).__name__}")
    return out
