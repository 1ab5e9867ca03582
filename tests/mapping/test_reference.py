"""Our packaged tables against the HIPIFY reference: every difference must be explained."""

from __future__ import annotations

import csv
import gzip
import io
from pathlib import Path

import pytest

from cuda2rocm.mapping import load, parse_version
from cuda2rocm.mapping.table import read_rows

VENDORED = Path(__file__).parent / "data" / "hipify-map.csv.gz"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "reference" / "hipify-map.csv"


def _reference() -> list[dict[str, str]]:
    """One row per CUDA name: the first, as the generator keeps it (the 10 names listed twice, e.g.
    ``CUstream_st`` in both the runtime and the driver table, keep their first library)."""
    rows: dict[str, dict[str, str]] = {}
    for row in csv.DictReader(io.StringIO(gzip.decompress(VENDORED.read_bytes()).decode())):
        rows.setdefault(row["cuda_name"], row)
    return list(rows.values())


def _reference_support(row: dict[str, str]) -> str:
    # Written independently of tools/gen_mapping.py on purpose.
    if not row["hip_name"]:
        return "unsupported"
    if row["hip_removed"]:
        return "removed"
    if row["experimental"] or "HIP_EXPERIMENTAL" in row["src_flags"]:
        return "experimental"
    return "deprecated" if row["hip_deprecated"] else "supported"


def _ours(entry, field: str) -> str:
    value = getattr(entry, field)
    if field == "experimental":
        return "x" if value else ""
    return "" if value is None else str(value)


def _theirs(row: dict[str, str], field: str) -> str:
    value = {"hip": row["hip_name"], "roc": row["roc_name"], "support": _reference_support(row)}.get(field)
    if value is None:
        value = row[field]
        return ("x" if value else "") if field == "experimental" else _norm(value)
    return value


def _norm(text: str) -> str:
    return str(parse_version(text)) if text else ""


FIELDS = ("hip", "roc", "support", "cuda_added", "cuda_deprecated", "cuda_removed", "hip_added",
          "hip_deprecated", "hip_removed", "experimental")  # fmt: skip


def _explained() -> set[tuple[str, str]]:
    return {(row["cuda"], row["field"]) for _, row in read_rows("disagreements")}


def test_vendored_reference_matches_shared_copy():
    if not SHARED.exists():
        pytest.skip("../shared/reference not present on this machine")
    assert gzip.decompress(VENDORED.read_bytes()) == SHARED.read_bytes()


def test_every_reference_name_is_mapped():
    table = load()
    missing = sorted({r["cuda_name"] for r in _reference()} - {e.cuda for e in table})
    assert missing == []


def test_no_unexplained_disagreement():
    table, explained = load(), _explained()
    unexplained = []
    for row in _reference():
        entry = table.lookup(row["cuda_name"])
        for field in FIELDS:
            ours, theirs = _ours(entry, field), _theirs(row, field)
            if ours != theirs and (row["cuda_name"], field) not in explained:
                unexplained.append((row["cuda_name"], field, theirs, ours))
    assert unexplained[:20] == []


def test_every_explained_disagreement_is_real():
    """A stale disagreements row (explaining a difference that no longer exists) is an error too."""
    reference = {r["cuda_name"]: r for r in _reference()}
    stale = []
    for _, row in read_rows("disagreements"):
        entry = load().lookup(row["cuda"])
        if _ours(entry, row["field"]) == _theirs(reference[row["cuda"]], row["field"]):
            stale.append((row["cuda"], row["field"]))
        assert row["reason"] and row["source"]
    assert stale == []
