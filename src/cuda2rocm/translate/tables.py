"""The engine's access to the mapping tables (``cuda2rocm.mapping``), loaded once per process."""

from __future__ import annotations

import functools

from cuda2rocm.mapping.entry import Entry, HeaderEntry


@functools.lru_cache(maxsize=1)
def _table():  # type: ignore[no-untyped-def]
    from cuda2rocm import mapping

    return mapping.load()


def lookup(name: str) -> Entry | None:
    found = _table().lookup(name)
    return found if isinstance(found, Entry) else None


def header(name: str) -> HeaderEntry | None:
    found = _table().header(name)
    return found if isinstance(found, HeaderEntry) else None


@functools.lru_cache(maxsize=1)
def newest_rocm() -> str:
    from cuda2rocm import mapping

    return str(mapping.newest_rocm())
