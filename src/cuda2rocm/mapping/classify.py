"""Which CUDA library an identifier belongs to, including names with no HIP equivalent."""

from __future__ import annotations

import functools

from cuda2rocm.mapping.table import load, read_rows


@functools.lru_cache(maxsize=1)
def _prefixes() -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """(prefix, library) pairs, longest first, and all prefixes as one tuple for a fast reject."""
    rows = sorted(((row["prefix"], row["library"]) for _, row in read_rows("prefixes")), key=lambda r: -len(r[0]))
    return tuple(rows), tuple(prefix for prefix, _ in rows)


@functools.lru_cache(maxsize=65536)
def identifier_library(name: str) -> str:
    """``"runtime"``, ``"cublas"``, ... for a CUDA identifier; ``""`` when it is not a CUDA name.

    Table rows decide first (so ``__shfl_down_sync`` is ``device``); otherwise the longest known naming
    prefix (``cublasFooBar`` -> ``cublas``, ``cudaNewThing`` -> ``runtime``). Memoised: scans repeat names."""
    library = load().library_of(name)
    if library is not None:
        return library
    pairs, every = _prefixes()
    if not name.startswith(every):
        return ""
    for prefix, library in pairs:
        if name.startswith(prefix) and _prefix_matches(name, prefix):
            return library
    return ""


def _prefix_matches(name: str, prefix: str) -> bool:
    """``cu`` and ``cuda`` are only prefixes when a capital letter follows (``cuMemAlloc``, not ``cube``)."""
    if prefix in ("cu", "cuda"):
        rest = name[len(prefix) :]
        return bool(rest) and rest[0].isupper()
    return True
