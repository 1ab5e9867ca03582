"""Regenerate src/cuda2rocm/mapping/data/*.csv from the HIPIFY facts plus our own corrections.

Usage:  python tools/gen_mapping.py [path/to/hipify-map.csv] [--out DIR]

Inputs (never read by the product at run time):
  * the HIPIFY-derived reference table (default ../shared/reference/hipify-map.csv, else the vendored
    copy tests/mapping/data/hipify-map.csv.gz): API names and version numbers are facts;
  * tools/mapping_src/corrections.csv: rows where we know better (each with a reason and a source);
  * tools/mapping_src/extra/<library>.csv: hand-written rows for APIs the reference does not cover.
Outputs: one CSV per library, disagreements.csv (every field where we differ from the reference, with
the reason), roc_versions.csv (the ROCm releases of roc* names that arrived after ROCm 5.0 or were
deprecated or removed: what --roc may emit per --target-rocm) and SOURCES.md.
"""

from __future__ import annotations

import csv
import gzip
import io
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "cuda2rocm" / "mapping" / "data"
SRC = ROOT / "tools" / "mapping_src"
DEFAULT_REF = ROOT.parent / "shared" / "reference" / "hipify-map.csv"
VENDORED_REF = ROOT / "tests" / "mapping" / "data" / "hipify-map.csv.gz"
TODAY = "2026-11-30"

COLUMNS = (
    "cuda", "hip", "roc", "kind", "support", "cuda_added", "cuda_deprecated", "cuda_removed",
    "hip_added", "hip_deprecated", "hip_removed", "experimental", "fallback", "drop_args",
    "section", "source", "note",
)  # fmt: skip
COMPARED = ("hip", "roc", "support", "cuda_added", "cuda_deprecated", "cuda_removed", "hip_added",
            "hip_deprecated", "hip_removed", "experimental")  # fmt: skip

LIBRARY_OF_REFERENCE = {
    "CUDA Runtime API": "runtime", "CUDA Driver API": "driver", "CUDA Device API": "device",
    "cuBLAS": "cublas", "cuDNN": "cudnn", "cuSPARSE": "cusparse", "cuSOLVER": "cusolver",
    "cuRAND": "curand", "cuFFT": "cufft", "CUB": "cub", "NVRTC": "nvrtc", "cuComplex": "complex",
}  # fmt: skip
_HALF_MATH = re.compile(
    r"(__h(?!iloint)[a-z0-9_]+|h2?(ceil|cos|exp|exp10|exp2|floor|log|log10|log2|rcp|rint"
    r"|rsqrt|sin|sqrt|trunc))"
)


def reference_support(row: dict[str, str]) -> str:
    """HIP-side support level implied by a reference row."""
    flags = set(row["src_flags"].split("|"))
    if not row["hip_name"] or flags & {"UNSUPPORTED", "HIP_UNSUPPORTED"}:
        return "unsupported"
    if row["hip_removed"]:
        return "removed"
    if row["experimental"] or "HIP_EXPERIMENTAL" in flags:
        return "experimental"
    if row["hip_deprecated"]:
        return "deprecated"
    return "supported"


def library_of(row: dict[str, str]) -> str:
    """Split the reference's coarse libraries into the tables we ship."""
    lib, name = LIBRARY_OF_REFERENCE[row["library"]], row["cuda_name"]
    if lib == "device":
        low = name.lower()
        if "bfloat" in low or "bf16" in low:
            return "bf16"
        if "half" in low or _HALF_MATH.fullmatch(name):
            return "fp16"
    if lib == "cublas":
        if name.lower().startswith("cublaslt"):
            return "cublaslt"
        if row["section"] == "CUDA Library Data types":
            return "datatypes"
    if lib in ("runtime", "driver") and row["kind"] == "define":
        return "macros"
    return lib


def from_reference(row: dict[str, str]) -> dict[str, str]:
    return {
        "cuda": row["cuda_name"], "hip": row["hip_name"], "roc": row["roc_name"], "kind": row["kind"],
        "support": reference_support(row), "cuda_added": row["cuda_added"],
        "cuda_deprecated": row["cuda_deprecated"], "cuda_removed": row["cuda_removed"],
        "hip_added": row["hip_added"], "hip_deprecated": row["hip_deprecated"],
        "hip_removed": row["hip_removed"], "experimental": row["experimental"], "fallback": "",
        "drop_args": "", "section": row["section"], "source": f"HIPIFY docs/tables/{row['source_table']}",
        "note": _flag_note(row),
    }  # fmt: skip


def _flag_note(row: dict[str, str]) -> str:
    flags = set(row["src_flags"].split("|"))
    notes = []
    if "HIP_SUPPORTED_V2_ONLY" in flags:
        notes.append("legacy cuBLAS API: HIP maps only the _v2 form")
    if "ROC_UNSUPPORTED" in flags:
        notes.append("no roc* equivalent")
    if "CUDA_OVERLOADED" in flags:
        notes.append("overloaded in CUDA")
    return "; ".join(notes)


def read_csv(text: str) -> list[dict[str, str]]:
    lines = [line for line in text.splitlines() if not line.startswith("#")]
    return list(csv.DictReader(io.StringIO("\n".join(lines))))


def read_reference(path: Path) -> list[dict[str, str]]:
    if path.suffix == ".gz":
        return read_csv(gzip.decompress(path.read_bytes()).decode())
    return read_csv(path.read_text(encoding="utf-8"))


def tables_from_reference(rows: Iterable[dict[str, str]]) -> dict[str, dict[str, dict[str, str]]]:
    """library -> cuda name -> row; a name listed twice keeps its first library (runtime before driver)."""
    tables: dict[str, dict[str, dict[str, str]]] = {}
    seen: set[str] = set()
    for row in rows:
        if row["cuda_name"] in seen:
            continue
        seen.add(row["cuda_name"])
        tables.setdefault(library_of(row), {})[row["cuda_name"]] = from_reference(row)
    return tables


def apply_cudnn_policy(table: dict[str, dict[str, str]]) -> list[dict[str, str]]:
    """cuDNN maps to MIOpen where an equivalent exists, otherwise it is unsupported: never guessed."""
    fix = {"cuda": "", "reason": CUDNN_REASON, "source": CUDNN_SOURCE}
    out = []
    for name, row in table.items():
        support = "supported" if row["roc"] else "unsupported"
        fix["cuda"] = name
        for field, value in (("hip", ""), ("support", support)):
            if row[field] != value:
                out.append(_disagreement("cudnn", fix, field, row[field], value))
        if row["hip"]:
            row["note"] = "; ".join(filter(None, [row["note"], f"HIPIFY names hipDNN {row['hip']}"]))
        row["hip"], row["support"] = "", support
    return out


CUDNN_REASON = "hipDNN is not a shipped ROCm component (compatibility matrices 6.0-7.2): use MIOpen (roc column)"
CUDNN_SOURCE = "ROCm compatibility matrix 6.0-7.2 component lists; HIPIFY CUDNN_API_supported_by_HIP_and_MIOPEN.md"


def apply_corrections(
    tables: dict[str, dict[str, dict[str, str]]], corrections: list[dict[str, str]]
) -> list[dict[str, str]]:
    """Overwrite fields named by corrections.csv; return the disagreements they create."""
    disagreements = []
    where = {name: lib for lib, table in tables.items() for name in table}
    for fix in corrections:
        lib = where[fix["cuda"]]
        row = tables[lib][fix["cuda"]]
        for field, value in _fields(fix["set"]):
            if field in COMPARED and row[field] != value:
                disagreements.append(_disagreement(lib, fix, field, row[field], value))
            row[field] = value
        row["source"] = fix["source"]
    return disagreements


def _fields(spec: str) -> Iterator[tuple[str, str]]:
    for part in spec.split("|"):
        field, _, value = part.partition("=")
        if field.strip() not in COLUMNS:
            raise ValueError(f"corrections.csv: unknown column {field!r}")
        yield field.strip(), value.strip()


def _disagreement(lib: str, fix: dict[str, str], field: str, ref: str, ours: str) -> dict[str, str]:
    return {"library": lib, "cuda": fix["cuda"], "field": field, "reference": ref, "ours": ours,
            "reason": fix["reason"], "source": fix["source"]}  # fmt: skip


def add_extras(tables: dict[str, dict[str, dict[str, str]]]) -> None:
    for path in sorted((SRC / "extra").glob("*.csv")):
        table = tables.setdefault(path.stem, {})
        for row in read_csv(path.read_text(encoding="utf-8")):
            if row["cuda"] in table:
                raise ValueError(f"{path.name}: {row['cuda']} already in the reference; use corrections.csv")
            table[row["cuda"]] = {col: (row.get(col) or "").strip() for col in COLUMNS}


#: The oldest ROCm release in rocm_releases.csv: a roc* name added at or before it needs no gate.
OLDEST_ROCM = (5, 0, 0)
ROC_VERSION_COLUMNS = ("cuda", "roc", "roc_added", "roc_deprecated", "roc_removed", "source")


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def roc_versions(reference: Iterable[dict[str, str]],
                 tables: dict[str, dict[str, dict[str, str]]]) -> list[dict[str, str]]:
    """The reference's roc* release facts that matter for a target release: added after the oldest release we
    know, or deprecated or removed; only where our roc name is the reference's (a corrected name has no date)."""
    ours = {name: row["roc"] for table in tables.values() for name, row in table.items()}
    out, seen = [], set()
    for row in reference:
        name, roc = row["cuda_name"], row["roc_name"]
        if name in seen or not roc or ours.get(name) != roc:
            continue
        seen.add(name)
        late = bool(row["roc_added"]) and _version(row["roc_added"]) > OLDEST_ROCM
        if late or row["roc_deprecated"] or row["roc_removed"]:
            out.append({"cuda": name, "roc": roc, "roc_added": row["roc_added"] if late else "",
                        "roc_deprecated": row["roc_deprecated"], "roc_removed": row["roc_removed"],
                        "source": f"HIPIFY docs/tables/{row['source_table']}"})  # fmt: skip
    return sorted(out, key=lambda r: r["cuda"])


def write_table(path: Path, rows: Iterable[dict[str, str]], columns: Iterable[str], header: str) -> None:
    buf = io.StringIO()
    buf.write(header)
    writer = csv.DictWriter(buf, fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")


def header_comment(lib: str) -> str:
    return (f"# cuda2rocm mapping table '{lib}'. Generated {TODAY} by tools/gen_mapping.py from the HIPIFY\n"
            "# documentation tables (ROCm/HIPIFY docs/tables, snapshot 014177bc, 2024-10-24) plus the\n"
            "# corrections and additions in tools/mapping_src (each row names its source). Do not edit.\n")  # fmt: skip


def main(argv: list[str]) -> int:
    out = OUT
    if "--out" in argv:
        at = argv.index("--out")
        out, argv = Path(argv[at + 1]), argv[:at] + argv[at + 2 :]
    ref_path = Path(argv[0]) if argv else (DEFAULT_REF if DEFAULT_REF.exists() else VENDORED_REF)
    reference = read_reference(ref_path)
    tables = tables_from_reference(reference)
    corrections = read_csv((SRC / "corrections.csv").read_text(encoding="utf-8"))
    disagreements = apply_corrections(tables, corrections) + apply_cudnn_policy(tables["cudnn"])
    add_extras(tables)
    out.mkdir(parents=True, exist_ok=True)
    for lib, table in sorted(tables.items()):
        write_table(out / f"{lib}.csv", (table[k] for k in sorted(table)), COLUMNS, header_comment(lib))
    write_table(
        out / "disagreements.csv",
        disagreements,
        ("library", "cuda", "field", "reference", "ours", "reason", "source"),
        f"# Where our tables differ from the HIPIFY reference, and why. Generated {TODAY}.\n",
    )
    write_table(
        out / "roc_versions.csv",
        roc_versions(reference, tables),
        ROC_VERSION_COLUMNS,
        f"# ROCm releases of roc* names (--roc) added after ROCm 5.0, deprecated or removed, from the HIPIFY\n"
        f"# reference's ROC columns (roc_added = the first ROCm release that has the name). Generated {TODAY}.\n",
    )
    print(f"wrote {len(tables)} tables, {sum(map(len, tables.values()))} rows, {len(disagreements)} disagreements")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
