"""Which CUDA library an identifier belongs to, including names with no HIP equivalent."""

from __future__ import annotations

import functools

from cuda2rocm.mapping.table import load, read_rows


@functools.lru_cache(maxsize=1)
def _prefixes() -> tuple[tuple[str, str], ...]:
    rows = [(row["prefix"], row["library"]) for _, row in read_rows("prefixes")]
    return tuple(sorted(rows, key=lambda r: -len(r[0])))


def identifier_library(name: str) -> str:
    """``"runtime"``, ``"cublas"``, ... for a CUDA identifier; ``""`` when it is not a CUDA name.

    Table rows decide first (so ``__shfl_down_sync`` is ``device``); otherwise the longest known naming
    prefix (``cublasFooBar`` -> ``cublas``, ``cudaNewThing`` -> ``runtime``)."""
    entry = load().lookup(name)
    if entry is not None:
        return entry.library
    for prefix, library in _prefixes():
        if name.startswith(prefix) and _prefix_matches(name, prefix):
            return library
    return ""


def _prefix_matches(name: str, prefix: str) -> bool:
    """``cu`` and ``cuda`` are only prefixes when a capital letter follows (``cuMemAlloc``, not ``cube``)."""
    if prefix in ("cu", "cuda"):
        rest = name[len(prefix) :]
        return bool(rest) and rest[0].isupper()
    return True
