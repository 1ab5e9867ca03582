"""Load the packaged CSV tables into one dict-backed :class:`MappingTable`."""

from __future__ import annotations

import csv
import functools
import io
from collections.abc import Iterator
from importlib import resources

from cuda2rocm.mapping.entry import SUPPORT_LEVELS, Entry, HeaderEntry
from cuda2rocm.mapping.version import optional_version

# Tables that are not identifier tables.
_NOT_IDENTIFIERS = frozenset({"headers", "disagreements", "rocm_releases", "prefixes"})
# When a name appears in two tables the earlier library here wins (a name is listed once per table).
PRIORITY = ("runtime", "driver", "device", "macros", "datatypes")


class MappingDataError(ValueError):
    """A packaged table is malformed (names the file and line)."""


def read_rows(name: str) -> Iterator[tuple[int, dict[str, str]]]:
    """Rows of ``data/<name>.csv`` with their 1-based line numbers; ``#`` lines are comments."""
    text = resources.files("cuda2rocm.mapping").joinpath("data").joinpath(f"{name}.csv").read_text("utf-8")
    lines = text.splitlines()
    numbered = [(n, line) for n, line in enumerate(lines, 1) if not line.startswith("#")]
    reader = csv.DictReader(io.StringIO("\n".join(line for _, line in numbered)))
    for (lineno, _), row in zip(numbered[1:], reader, strict=False):
        yield lineno, row


def table_names() -> list[str]:
    data = resources.files("cuda2rocm.mapping").joinpath("data")
    names = (p.name[:-4] for p in data.iterdir() if p.name.endswith(".csv"))
    return sorted(n for n in names if n not in _NOT_IDENTIFIERS)


def _entry(library: str, row: dict[str, str]) -> Entry:
    if row["support"] not in SUPPORT_LEVELS:
        raise ValueError(f"support {row['support']!r} is not one of {', '.join(SUPPORT_LEVELS)}")
    return Entry(
        cuda=row["cuda"], hip=row["hip"], roc=row["roc"], library=library, kind=row["kind"],
        support=row["support"], hip_added=optional_version(row["hip_added"]),
        hip_deprecated=optional_version(row["hip_deprecated"]),
        hip_removed=optional_version(row["hip_removed"]), experimental=bool(row["experimental"]),
        note=row["note"], cuda_added=optional_version(row["cuda_added"]),
        cuda_deprecated=optional_version(row["cuda_deprecated"]),
        cuda_removed=optional_version(row["cuda_removed"]), fallback=row["fallback"],
        drop_args=tuple(int(i) for i in row["drop_args"].split()), section=row["section"],
        source=row["source"],
    )  # fmt: skip


def _header(row: dict[str, str]) -> HeaderEntry:
    return HeaderEntry(
        cuda=row["cuda"], hip=row["hip"], roc=row["roc"], library=row["library"], support=row["support"],
        hip_added=optional_version(row["hip_added"]), fallback=row["fallback"], source=row["source"],
        note=row["note"],
    )  # fmt: skip


def load_library(library: str) -> list[Entry]:
    entries = []
    for lineno, row in read_rows(library):
        try:
            entries.append(_entry(library, row))
        except (KeyError, ValueError, TypeError) as exc:
            raise MappingDataError(f"mapping/data/{library}.csv:{lineno}: {exc}") from exc
    return entries


class MappingTable:
    """All identifier and header mappings; O(1) lookups by CUDA name."""

    def __init__(self, entries: dict[str, Entry], headers: dict[str, HeaderEntry], libraries: list[str]):
        self._entries = entries
        self._headers = headers
        self._libraries = libraries

    def lookup(self, name: str) -> Entry | None:
        return self._entries.get(name)

    def header(self, name: str) -> HeaderEntry | None:
        return self._headers.get(name.strip().strip('<>"'))

    def libraries(self) -> list[str]:
        return list(self._libraries)

    def by_library(self, library: str) -> list[Entry]:
        return [e for e in self._entries.values() if e.library == library]

    def headers(self) -> list[HeaderEntry]:
        return list(self._headers.values())

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self._entries.values())

    def __contains__(self, name: object) -> bool:
        return name in self._entries


def _ordered(names: list[str]) -> list[str]:
    first = [n for n in PRIORITY if n in names]
    return first + [n for n in names if n not in first]


@functools.lru_cache(maxsize=1)
def load() -> MappingTable:
    """Every packaged table (cached: the first call parses, later calls are free)."""
    libraries = table_names()
    entries: dict[str, Entry] = {}
    for library in _ordered(libraries):
        for entry in load_library(library):
            entries.setdefault(entry.cuda, entry)
    headers = {}
    for lineno, row in read_rows("headers"):
        try:
            headers[row["cuda"]] = _header(row)
        except (KeyError, ValueError) as exc:
            raise MappingDataError(f"mapping/data/headers.csv:{lineno}: {exc}") from exc
    return MappingTable(entries, headers, libraries)
