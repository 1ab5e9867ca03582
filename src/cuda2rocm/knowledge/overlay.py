"""``cuda2rocm kb update --from FILE``: validate a user-supplied table (YAML or CSV) and merge it into the
user overlay, atomically, keeping a backup of the previous overlay. No code change is needed for new facts.

YAML: the shape of the shipped tables: ``{releases: {"7.3.0": {gfx_targets: [...], source: ..., date: ...}}}``.
CSV, long form: ``table,key,field,value,source,date`` (lists separated by ``;``, frameworks as ``frameworks.pytorch``).
CSV, matrix form: ``rocm,gfx_targets,os,pytorch,tensorflow,jax,onnxruntime,source,date`` (one release per row).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from cuda2rocm.fsio import write_bytes_atomic, write_text_atomic
from cuda2rocm.knowledge._load import OVERLAY_FILE, TABLES, KnowledgeError, parse_yaml, read_overlay
from cuda2rocm.knowledge.schema import MATRIX_COLUMNS, validate_tables

MAX_BYTES = 16 << 20


def load_update(path: Path) -> dict[str, dict[str, dict[str, Any]]]:
    """Read and validate a user file; raise :class:`KnowledgeError` naming the file (and row/line) on any problem."""
    try:
        if path.stat().st_size > MAX_BYTES:
            raise KnowledgeError(f"{path}: larger than {MAX_BYTES >> 20} MiB; not a knowledge-base table")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise KnowledgeError(f"{path}: cannot read: {exc}") from None
    data = _csv_tables(text, str(path)) if path.suffix.lower() == ".csv" else parse_yaml(text, str(path))
    if not isinstance(data, dict) or not data:
        raise KnowledgeError(f"{path}: expected a mapping of tables ({', '.join(TABLES)})")
    validate_tables(data, str(path))
    return {str(t): {str(k): dict(v) for k, v in entries.items()} for t, entries in data.items()}


def _csv_tables(text: str, name: str) -> dict[str, Any]:
    try:
        rows = list(csv.DictReader(io.StringIO(text)))
    except csv.Error as exc:
        raise KnowledgeError(f"{name}: malformed CSV: {exc}") from None
    header = set(rows[0]) if rows else set()
    if {"table", "key", "field", "value"} <= header:
        return _long_rows(rows, name)
    if "rocm" in header:
        return _matrix_rows(rows, name)
    raise KnowledgeError(f"{name}:1: CSV header must have table,key,field,value,source,date or rocm,... columns")


def _split(value: str) -> list[str]:
    return [v.strip() for v in value.split(";") if v.strip()]


def _long_rows(rows: list[dict[str, str]], name: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for lineno, row in enumerate(rows, start=2):
        table, key, fld, value = (str(row.get(c) or "").strip() for c in ("table", "key", "field", "value"))
        if not (table and key and fld):
            raise KnowledgeError(f"{name}:{lineno}: table, key and field must not be empty")
        entry = out.setdefault(table, {}).setdefault(key, {})
        _set_field(entry, fld, value)
        for meta in ("source", "date"):
            if row.get(meta):
                entry[meta] = str(row[meta]).strip()
    return out


def _set_field(entry: dict[str, Any], fld: str, value: str) -> None:
    if "." in fld:
        outer, inner = fld.split(".", 1)
        entry.setdefault(outer, {})[inner] = _split(value) if outer == "frameworks" else value
    else:
        entry[fld] = value


def _matrix_rows(rows: list[dict[str, str]], name: str) -> dict[str, Any]:
    releases: dict[str, Any] = {}
    for lineno, row in enumerate(rows, start=2):
        version = str(row.get("rocm") or "").strip()
        if not version:
            raise KnowledgeError(f"{name}:{lineno}: the rocm column is empty")
        entry: dict[str, Any] = {m: str(row.get(m) or "").strip() for m in ("source", "date")}
        for col in MATRIX_COLUMNS:
            if row.get(col):
                entry[col] = _split(str(row[col]))
        frameworks = {fw: _split(str(row[fw])) for fw in ("pytorch", "tensorflow", "jax", "onnxruntime") if row.get(fw)}
        if frameworks:
            entry["frameworks"] = frameworks
        releases[version] = entry
    return {"releases": releases}


def merge_into_overlay(kb_dir: Path, update: dict[str, dict[str, dict[str, Any]]]) -> tuple[Path, int]:
    """Merge ``update`` into ``kb_dir/overlay.yaml``; returns (path, entries written). Previous file -> ``.bak``."""
    current = read_overlay(kb_dir)
    count = 0
    for table, entries in update.items():
        merged = dict(current.get(table) or {})
        for key, fields in entries.items():
            merged[key] = {**(merged.get(key) or {}), **fields}
            count += 1
        current[table] = merged
    path = kb_dir / OVERLAY_FILE
    _atomic_write(path, current)
    return path, count


def _atomic_write(path: Path, data: dict[str, Any]) -> None:
    if path.exists():
        write_bytes_atomic(path.with_suffix(".yaml.bak"), path.read_bytes(), mode_from=path)
    yaml = YAML(typ="safe")
    yaml.default_flow_style = False
    text = io.StringIO()
    text.write("# cuda2rocm knowledge-base overlay, written by `cuda2rocm kb update`.\n")
    yaml.dump(data, text)
    write_text_atomic(path, text.getvalue())
