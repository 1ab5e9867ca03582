"""Load the packaged CSV tables into one dict-backed :class:`MappingTable`.

Loading reads each row's first field (its CUDA name) only; the row is parsed as CSV and its :class:`Entry`
built the first time that name is looked up (or the table is iterated), which keeps ``load()`` cheap on scan's
hot path and on a single-file convert's start-up."""

from __future__ import annotations

import csv
import functools
import itertools
from collections.abc import Iterator
from importlib import resources

from cuda2rocm.mapping.entry import SUPPORT_LEVELS, Entry, HeaderEntry
from cuda2rocm.mapping.version import Version, optional_version, parse_version

# Tables that are not identifier tables.
_NOT_IDENTIFIERS = frozenset({"headers", "disagreements", "rocm_releases", "prefixes", "roc_versions"})
# When a name appears in two tables the earlier library here wins (a name is listed once per table).
PRIORITY = ("runtime", "driver", "device", "macros", "datatypes")
ENTRY_COLUMNS = (
    "cuda", "hip", "roc", "kind", "support", "cuda_added", "cuda_deprecated", "cuda_removed", "hip_added",
    "hip_deprecated", "hip_removed", "experimental", "fallback", "drop_args", "section", "source", "note",
)  # fmt: skip


class MappingDataError(ValueError):
    """A packaged table is malformed (names the file and line)."""


def _text(name: str) -> str:
    return resources.files("cuda2rocm.mapping").joinpath("data").joinpath(f"{name}.csv").read_text("utf-8")


def _data_lines(name: str) -> list[tuple[int, str]]:
    """The lines of ``data/<name>.csv`` with their 1-based numbers, ``#`` comment lines left out."""
    lines = _text(name).splitlines()
    top = 0  # the leading comment lines
    while top < len(lines) and lines[top].startswith("#"):
        top += 1
    numbered = list(enumerate(lines[top:], top + 1))
    if any(map(str.startswith, lines[top:], itertools.repeat("#"))):  # comments further down too (C speed)
        numbered = [(n, line) for n, line in numbered if not line.startswith("#")]
    return numbered


def read_table(name: str) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """Header and rows of ``data/<name>.csv`` with 1-based line numbers; ``#`` lines are comments."""
    numbered = _data_lines(name)
    parsed = csv.reader([line for _, line in numbered])
    header = next(parsed)
    rows = [(lineno, row) for (lineno, _), row in zip(numbered[1:], parsed, strict=False)]
    for lineno, row in rows:
        if len(row) != len(header):
            raise MappingDataError(f"mapping/data/{name}.csv:{lineno}: {len(row)} fields, expected {len(header)}")
    return header, rows


def read_rows(name: str) -> Iterator[tuple[int, dict[str, str]]]:
    """Rows of ``data/<name>.csv`` as dicts, with their line numbers."""
    header, rows = read_table(name)
    for lineno, row in rows:
        yield lineno, dict(zip(header, row, strict=True))


def table_names() -> list[str]:
    data = resources.files("cuda2rocm.mapping").joinpath("data")
    names = (p.name[:-4] for p in data.iterdir() if p.name.endswith(".csv"))
    return sorted(n for n in names if n not in _NOT_IDENTIFIERS)


def _entry(library: str, row: list[str]) -> Entry:
    (cuda, hip, roc, kind, support, cuda_added, cuda_deprecated, cuda_removed, hip_added, hip_deprecated,
     hip_removed, experimental, fallback, drop_args, section, source, note) = row  # fmt: skip
    if support not in SUPPORT_LEVELS:
        raise ValueError(f"support {support!r} is not one of {', '.join(SUPPORT_LEVELS)}")
    return Entry(
        cuda, hip, roc, library, kind, support, optional_version(hip_added), optional_version(hip_deprecated),
        optional_version(hip_removed), bool(experimental), note, optional_version(cuda_added),
        optional_version(cuda_deprecated), optional_version(cuda_removed), fallback,
        tuple(int(i) for i in drop_args.split()), section, source,
    )  # fmt: skip


def _header(row: dict[str, str]) -> HeaderEntry:
    return HeaderEntry(
        cuda=row["cuda"], hip=row["hip"], roc=row["roc"], library=row["library"], support=row["support"],
        hip_added=optional_version(row["hip_added"]), fallback=row["fallback"], source=row["source"],
        note=row["note"],
    )  # fmt: skip


def _raw_library(library: str) -> list[tuple[int, list[str]]]:
    header, rows = read_table(library)
    if tuple(header) != ENTRY_COLUMNS:
        raise MappingDataError(f"mapping/data/{library}.csv: columns {header} are not {list(ENTRY_COLUMNS)}")
    return rows


def _library_lines(library: str) -> list[tuple[int, str]]:
    """The numbered data lines of an identifier table (comments and the checked header left out), unparsed."""
    numbered = _data_lines(library)
    header = next(csv.reader([numbered[0][1]])) if numbered else []
    if tuple(header) != ENTRY_COLUMNS:
        raise MappingDataError(f"mapping/data/{library}.csv: columns {header} are not {list(ENTRY_COLUMNS)}")
    return numbered[1:]


def _first_field(line: str) -> str:
    """The first CSV field of a line that starts with a quote."""
    return next(csv.reader([line]), [""])[0]


def _row(library: str, lineno: int, line: str) -> list[str]:
    row = next(csv.reader([line]), [])
    if len(row) != len(ENTRY_COLUMNS):
        raise MappingDataError(
            f"mapping/data/{library}.csv:{lineno}: {len(row)} fields, expected {len(ENTRY_COLUMNS)}")
    return row


def load_library(library: str) -> list[Entry]:
    return [_checked_entry(library, lineno, row) for lineno, row in _raw_library(library)]


def _checked_entry(library: str, lineno: int, row: list[str]) -> Entry:
    try:
        return _entry(library, row)
    except (ValueError, TypeError) as exc:
        raise MappingDataError(f"mapping/data/{library}.csv:{lineno}: {exc}") from exc


class MappingTable:
    """All identifier and header mappings; O(1) lookups by CUDA name."""

    def __init__(
        self,
        raw: dict[str, tuple[str, int, str]],
        headers: dict[str, HeaderEntry],
        libraries: list[str],
    ):
        self._raw = raw  # name -> (library, line number, the line's CSV text); entries are built on first use
        self._entries: dict[str, Entry] = {}
        self._headers = headers
        self._libraries = libraries

    def lookup(self, name: str) -> Entry | None:
        entry = self._entries.get(name)
        if entry is None:
            raw = self._raw.get(name)
            if raw is None:
                return None
            library, lineno, line = raw
            entry = self._entries[name] = _checked_entry(library, lineno, _row(library, lineno, line))
        return entry

    def library_of(self, name: str) -> str | None:
        """The table a name is listed in, without building its entry."""
        raw = self._raw.get(name)
        return raw[0] if raw is not None else None

    def header(self, name: str) -> HeaderEntry | None:
        return self._headers.get(name.strip().strip('<>"'))

    def libraries(self) -> list[str]:
        return list(self._libraries)

    def by_library(self, library: str) -> list[Entry]:
        return [e for e in self if e.library == library]

    def headers(self) -> list[HeaderEntry]:
        return list(self._headers.values())

    def __len__(self) -> int:
        return len(self._raw)

    def __iter__(self) -> Iterator[Entry]:
        for name in self._raw:
            entry = self.lookup(name)
            assert entry is not None
            yield entry

    def __contains__(self, name: object) -> bool:
        return name in self._raw


def _ordered(names: list[str]) -> list[str]:
    first = [n for n in PRIORITY if n in names]
    return first + [n for n in names if n not in first]


@functools.lru_cache(maxsize=1)
def load() -> MappingTable:
    """Every packaged table (cached: the first call parses, later calls are free)."""
    libraries = table_names()
    raw: dict[str, tuple[str, int, str]] = {}
    for library in _ordered(libraries):
        for lineno, line in _library_lines(library):
            name = line.partition(",")[0] if line[:1] != '"' else _first_field(line)
            if name not in raw:
                raw[name] = (library, lineno, line)
    headers = {}
    for lineno, row in read_rows("headers"):
        try:
            headers[row["cuda"]] = _header(row)
        except (KeyError, ValueError) as exc:
            raise MappingDataError(f"mapping/data/headers.csv:{lineno}: {exc}") from exc
    return MappingTable(raw, headers, libraries)


@functools.lru_cache(maxsize=1)
def roc_versions() -> dict[str, tuple[str, Version | None, Version | None]]:
    """CUDA name -> (roc* name, first ROCm release with it, release that removed it), for the roc* names the
    oldest known release lacks or a later one removed (``data/roc_versions.csv``); other roc* names are in every
    release the tables know."""
    out = {}
    for lineno, row in read_rows("roc_versions"):
        try:
            out[row["cuda"]] = (row["roc"], optional_version(row["roc_added"]), optional_version(row["roc_removed"]))
        except ValueError as exc:
            raise MappingDataError(f"mapping/data/roc_versions.csv:{lineno}: {exc}") from exc
    return out


def roc_available(entry: Entry, rocm: Version | str) -> bool:
    """True when ``entry.roc`` exists in that ROCm release (``roc_versions.csv``; unlisted names always do)."""
    found = roc_versions().get(entry.cuda)
    if not entry.roc or found is None or found[0] != entry.roc:
        return bool(entry.roc)
    version = parse_version(rocm)
    added, removed = found[1], found[2]
    return (added is None or added <= version) and (removed is None or version < removed)
