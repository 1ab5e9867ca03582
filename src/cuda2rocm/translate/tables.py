"""The engine's access to the mapping tables (``cuda2rocm.mapping``), loaded once per process."""

from __future__ import annotations

import functools

from cuda2rocm.mapping.entry import Entry, HeaderEntry
from cuda2rocm.mapping.table import load


def lookup(name: str) -> Entry | None:
    found = load().lookup(name)
    return found if isinstance(found, Entry) else None


def header(name: str) -> HeaderEntry | None:
    found = load().header(name)
    return found if isinstance(found, HeaderEntry) else None


@functools.lru_cache(maxsize=1)
def newest_rocm() -> str:
    from cuda2rocm import mapping

    return str(mapping.newest_rocm())
