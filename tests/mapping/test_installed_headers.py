"""The cuSPARSE and cuRAND tables agree with the ROCm 5.3 library headers Debian 12 packages (hipSPARSE 5.3.3,
rocSPARSE 5.3.0, hipRAND 5.3.3, rocRAND 5.3.3 under /usr/include): every hip*/roc* name the tables emit for ROCm
5.3 is declared there, and no name the tables date later is. Skipped where the headers are not installed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cuda2rocm.mapping import load
from cuda2rocm.mapping.table import roc_available
from cuda2rocm.source import tokenize

INCLUDE = Path("/usr/include")
LIBRARIES = {"cusparse": ("hipsparse", "rocsparse"), "curand": ("hiprand", "rocrand")}


def _identifiers(directory: str) -> set[str]:
    names: set[str] = set()
    for path in sorted((INCLUDE / directory).glob("*.h")):
        if path.stem.endswith("_nvcc"):
            continue  # hipRAND's NVIDIA-platform headers (typedefs of cuRAND's names), not the AMD API
        names |= {t.src for t in tokenize(path.read_text(encoding="utf-8", errors="replace")) if t.kind == "IDENT"}
    return names


def _last(name: str) -> str:
    """The identifier a header declares for a table name (``rocrand_device::xorwow_engine`` -> ``xorwow_engine``)."""
    return re.split(r"[<]", name)[0].rsplit("::", 1)[-1]


@pytest.mark.parametrize("library", sorted(LIBRARIES))
def test_hip_names_for_rocm_5_3_are_declared_and_later_ones_are_not(library: str) -> None:
    hip_dir, _ = LIBRARIES[library]
    if not (INCLUDE / hip_dir).is_dir():
        pytest.skip(f"/usr/include/{hip_dir} not installed")
    declared = _identifiers(hip_dir)
    entries = [e for e in load().by_library(library) if e.hip and e.support != "removed"]
    missing = sorted(e.cuda for e in entries if e.available_in("5.3") and _last(e.hip) not in declared)
    early = sorted(e.cuda for e in entries if not e.available_in("5.3") and e.support != "unsupported"
                   and _last(e.hip) in declared)
    assert (missing, early) == ([], [])
    assert len(entries) > 100


@pytest.mark.parametrize("library", sorted(LIBRARIES))
def test_roc_names_for_rocm_5_3_are_declared_and_later_ones_are_not(library: str) -> None:
    _, roc_dir = LIBRARIES[library]
    if not (INCLUDE / roc_dir).is_dir():
        pytest.skip(f"/usr/include/{roc_dir} not installed")
    declared = _identifiers(roc_dir)
    entries = [e for e in load().by_library(library) if e.roc]
    missing = sorted(e.cuda for e in entries if roc_available(e, "5.3") and _last(e.roc) not in declared)
    early = sorted(e.cuda for e in entries if not roc_available(e, "5.3") and _last(e.roc) in declared)
    assert (missing, early) == ([], [])
    assert len(entries) > 100


def test_roc_gate_per_release() -> None:
    const_csr = load().lookup("cusparseCreateConstCsr")
    assert const_csr is not None and const_csr.roc == "rocsparse_create_const_csr_descr"
    assert not roc_available(const_csr, "5.7") and roc_available(const_csr, "6.0")
    spmv = load().lookup("cusparseSpMV")
    assert spmv is not None and roc_available(spmv, "5.0")
