"""Which identifiers and headers are CUDA API references, and what the mapping table says about them.

The mapping table (:mod:`cuda2rocm.mapping`) is the authority for HIP names and support; when it does not
know a name, the library is inferred from the name's prefix and support is ``unknown``. Which names and headers
are CUDA's at all is :mod:`cuda2rocm.mapping.classify`'s (the same answer convert uses).
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from cuda2rocm.mapping import classify
from cuda2rocm.mapping.table import load
from cuda2rocm.rules import Rule
from cuda2rocm.scan import rules

NAMESPACES = classify.namespaces()
is_cuda_identifier = classify.looks_cuda
is_cuda_header = classify.is_cuda_header


class ApiEntry(NamedTuple):
    library: str
    hip_name: str
    support: str  # supported | unsupported | experimental | deprecated | removed | unknown


@functools.lru_cache(maxsize=8192)
def lookup(name: str) -> ApiEntry:
    """HIP counterpart and support of one CUDA name (identifier, ``ns::name`` or header)."""
    entry = _mapping_entry(name)
    if entry is None:
        return _header_entry(name) or ApiEntry(_library_of(name), "", "unknown")
    library = str(_field(entry, "library", "lib") or _library_of(name)).lower()
    hip = str(_field(entry, "hip_name", "hip") or "")
    support = str(_field(entry, "support") or "unknown")
    return ApiEntry(library, hip, support)


def _field(entry: Any, *names: str) -> Any:
    for n in names:
        value = getattr(entry, n, None)
        if value:
            return value
    return None


def _library_of(name: str) -> str:
    return classify.prefix_library(name) or "unknown"


def _header_entry(name: str) -> ApiEntry | None:
    """``cublas_v2.h`` -> hipblas/hipblas.h from the mapping's header table."""
    if not is_cuda_header(name):
        return None
    header = load().header(name)
    if header is None:
        return None
    library = str(header.library or _library_of(name)).lower()
    return ApiEntry(library, header.hip or "", "supported" if header.hip else str(header.support or "unsupported"))


def _mapping_entry(name: str) -> Any:
    return load().lookup(name)


@functools.lru_cache(maxsize=1)
def nvml_to_amdsmi() -> dict[str, tuple[str, str]]:
    """NVML name -> (AMD SMI replacement, what differs), from ``scan/data/nvml_amdsmi.csv``."""
    from cuda2rocm.datafiles import packaged_csv

    return {r["nvml"]: (r["amdsmi"], r["note"]) for r in packaged_csv("cuda2rocm.scan", "data/nvml_amdsmi.csv")}


def nvml_message(name: str) -> str:
    """What a port does with one NVML name: its AMD SMI counterpart and what differs, or that it has none."""
    amd, note = nvml_to_amdsmi().get(name, ("", ""))
    if amd:
        return f"NVML {name} -> AMD SMI {amd}" + (f": {note}" if note else "")
    if note:
        return f"NVML {name} has no AMD SMI counterpart: {note}"
    return f"NVML {name}: not in the NVML -> AMD SMI table; port it to AMD SMI (amd_smi/amdsmi.h) by hand"


def first_use_finding(name: str) -> tuple[Rule, str] | None:
    """(rule, message) for the first use of a CUDA name in a file: S114 for NVML (its AMD SMI rewrite), S109
    without a HIP counterpart, S112 for a library API (runtime and driver calls are counted, not reported one by
    one)."""
    entry = lookup(name)
    if entry.library == "nvml":
        return rules.S114, nvml_message(name)
    if entry.support in ("unsupported", "removed"):
        return rules.S109, f"{name} ({entry.library}) has no supported HIP counterpart ({entry.support})"
    if entry.library not in ("runtime", "driver", "math", "unknown", ""):
        hip = f" -> {entry.hip_name}" if entry.hip_name else ""
        return rules.S112, f"{entry.library} {name}{hip}"
    return None
