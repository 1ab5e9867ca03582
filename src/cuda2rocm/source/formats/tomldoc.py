"""TOML documents on tomlkit (which keeps comments, order and formatting), with the span of any key or value.

Rewrites go through spans and :func:`cuda2rocm.source.edits.apply_edits`, never through ``tomlkit.dumps``: it
gives the text back byte for byte for most documents but regroups some orders of arrays of tables
(:attr:`TomlDocument.dumps_exactly` says which).

tomlkit has no positions, so :class:`TomlDocument` indexes the text once: a small scanner finds every table
header (``[a.b]``, ``[[aot]]``, numbered per occurrence) and every ``key = value`` line outside strings and
brackets, with the key's span; a value's span is then the item's own text (``item.as_string()``) located right
after its key. Paths are tuples of keys and, for arrays and arrays of tables, indexes:
``span("project", "dependencies", 0)`` is the first dependency string, quotes included.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import tomlkit
from tomlkit.exceptions import ParseError

from cuda2rocm.source.formats._base import Piece, Problem

Path = tuple[str | int, ...]
_BARE = re.compile(r"[A-Za-z0-9_-]+")
_WS = re.compile(r"[ \t]*")


@dataclass
class TomlDocument:
    text: str
    document: tomlkit.TOMLDocument | None
    problems: tuple[Problem, ...]
    _keys: dict[Path, Piece] = field(default_factory=dict, repr=False)
    _tables: dict[Path, Piece] = field(default_factory=dict, repr=False)

    @property
    def dumps_exactly(self) -> bool:
        """Whether ``tomlkit.dumps`` of the document reproduces the text byte for byte."""
        return self.document is not None and tomlkit.dumps(self.document) == self.text

    def data(self) -> dict[str, Any]:
        """Plain Python data (an empty dict when the document did not parse)."""
        return self.document.unwrap() if self.document is not None else {}

    def item(self, *path: str | int) -> Any:
        """The tomlkit item at ``path`` (``None`` when there is none)."""
        node: Any = self.document
        for part in path:
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                return None
        return node

    def key_span(self, *path: str | int) -> Piece | None:
        """The key as written (``dependencies``, ``"quoted.key"``) of the entry at ``path``."""
        return self._keys.get(tuple(path))

    def table_span(self, *path: str | int) -> Piece | None:
        """A table header (``[tool.poetry]``; an array-of-tables entry is ``(..., index)``)."""
        return self._tables.get(tuple(path))

    def span(self, *path: str | int) -> Piece | None:
        """The value at ``path`` as written (strings with their quotes, arrays with their brackets)."""
        path = tuple(path)
        for cut in range(len(path), 0, -1):
            key = self._keys.get(path[:cut])
            if key is None:
                continue
            item = self.item(*path[:cut])
            if item is None:
                return None
            raw = _as_string(item)
            start = self.text.find(raw, key.end) if raw else -1
            if start < 0:
                return None
            return self._inner(Piece("value", raw, start), item, path[cut:])
        return None

    def _inner(self, piece: Piece, item: Any, rest: Path) -> Piece | None:
        """Descend into an array (``int``) or inline table (``str``) inside the value ``piece``."""
        if not rest:
            return piece
        part, pos = rest[0], piece.offset + 1
        try:
            children = [(i, item[i]) for i in range(len(item))] if isinstance(part, int) else list(item.items())
        except (TypeError, AttributeError):
            return None
        for name, child in children:
            if not isinstance(part, int):
                k = self.text.find(str(name), pos, piece.end)
                pos = k + len(str(name)) if k >= 0 else pos
            raw = _as_string(child)
            at = self.text.find(raw, pos, piece.end)
            if at < 0:
                return None
            if name == part:
                return self._inner(Piece("value", raw, at), child, rest[1:])
            pos = at + len(raw)
        return None


def _as_string(item: Any) -> str:
    """An item's text as written (tomlkit hands booleans out as plain ``bool``: TOML spells them one way)."""
    if isinstance(item, bool):
        return "true" if item else "false"
    return str(item.as_string()) if hasattr(item, "as_string") else str(item)


def _key_path(text: str, i: int, end: int) -> tuple[list[str], int, int] | None:
    """A dotted key starting at ``i``: (parts, start, end) or ``None``."""
    parts: list[str] = []
    start = i
    while i < end:
        i = _WS.match(text, i).end()  # type: ignore[union-attr]
        c = text[i : i + 1]
        if c in ('"', "'"):
            close = i + 1
            while close < end and text[close] != c:
                close += 2 if c == '"' and text[close] == "\\" else 1
            if close >= end:
                return None
            raw = text[i + 1 : close]
            parts.append(raw.encode().decode("unicode_escape") if c == '"' and "\\" in raw else raw)
            i = close + 1
        else:
            m = _BARE.match(text, i)
            if m is None:
                return None
            parts.append(m.group(0))
            i = m.end()
        after = _WS.match(text, i).end()  # type: ignore[union-attr]
        if text[after : after + 1] != ".":
            return parts, start, i
        i = after + 1
    return None


def _index(text: str) -> tuple[dict[Path, Piece], dict[Path, Piece]]:
    """Key and table-header spans of every entry at the document level (outside strings and brackets)."""
    keys: dict[Path, Piece] = {}
    tables: dict[Path, Piece] = {}
    aot_count: dict[tuple[str, ...], int] = {}
    table: Path = ()
    n = len(text)
    i = 0
    depth = 0
    line_start = True
    while i < n:
        c = text[i]
        if c == "\n":
            line_start, i = True, i + 1
            continue
        if c in " \t\r":
            i += 1
            continue
        if c == "#":
            nl = text.find("\n", i)
            i = n if nl < 0 else nl
            continue
        if text.startswith(('"""', "'''"), i):
            q = text[i : i + 3]
            close = i + 3
            while True:
                close = text.find(q, close)
                if close < 0 or q == "'''" or not _escaped(text, close):
                    break
                close += 1
            i = n if close < 0 else close + 3
            while i < n and text[i] == q[0]:  # up to two quotes may end the content
                i += 1
            line_start = False
            continue
        if c in ('"', "'"):
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if c == '"' and text[j] == "\\" else 1
            if line_start and depth == 0:
                found = _entry(text, i, n, table, keys)
                if found:
                    i, line_start = found, False
                    continue
            i, line_start = j + 1, False
            continue
        if line_start and depth == 0 and c == "[":
            aot = text.startswith("[[", i)
            kp = _key_path(text, i + (2 if aot else 1), n)
            if kp is not None:
                parts, _, kend = kp
                close = text.find("]]" if aot else "]", kend)
                if close >= 0:
                    stop = close + (2 if aot else 1)
                    if aot:
                        count = aot_count.get(tuple(parts), 0)
                        aot_count[tuple(parts)] = count + 1
                        table = (*parts, count)
                    else:
                        table = _with_aot_indexes(tuple(parts), aot_count)
                    tables[table] = Piece("table", text[i:stop], i)
                    i, line_start = stop, False
                    continue
        if line_start and depth == 0:
            found = _entry(text, i, n, table, keys)
            if found:
                i, line_start = found, False
                continue
        if c in "[{":
            depth += 1
        elif c in "]}":
            depth = max(0, depth - 1)
        line_start = False
        i += 1
    return keys, tables


def _escaped(text: str, i: int) -> bool:
    n = 0
    while i - n - 1 >= 0 and text[i - n - 1] == "\\":
        n += 1
    return n % 2 == 1


def _with_aot_indexes(parts: tuple[str, ...], aot_count: dict[tuple[str, ...], int]) -> Path:
    """``[a.b]`` below the latest ``[[a]]`` is ``("a", index, "b")``."""
    out: list[str | int] = []
    for k, part in enumerate(parts):
        out.append(part)
        count = aot_count.get(parts[: k + 1])
        if count and k + 1 < len(parts):
            out.append(count - 1)
    return tuple(out)


def _entry(text: str, i: int, n: int, table: Path, keys: dict[Path, Piece]) -> int | None:
    kp = _key_path(text, i, n)
    if kp is None:
        return None
    parts, start, end = kp
    eq = _WS.match(text, end).end()  # type: ignore[union-attr]
    if text[eq : eq + 1] != "=":
        return None
    keys[table + tuple(parts)] = Piece("key", text[start:end], start)
    return eq + 1


def read_toml(text: str) -> TomlDocument:
    """Read a TOML document (pyproject.toml, Pipfile, cuda2rocm.toml); never raises."""
    try:
        doc = tomlkit.parse(text)
    except ParseError as exc:
        return TomlDocument(text, None, (Problem(exc.line, f"invalid TOML: {exc}", 0),))
    except Exception as exc:  # tomlkit raises a few non-ParseError errors on broken input
        return TomlDocument(text, None, (Problem(0, f"invalid TOML: {exc}", 0),))
    keys, tables = _index(text)
    return TomlDocument(text, doc, (), keys, tables)
