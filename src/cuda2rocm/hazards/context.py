"""The per-file view every hazard check reads: tokens, code-token navigation, functions, locations.

Checks never rescan text: they walk the lossless token stream (comments and strings are tokens of their own,
so a ``32`` in a comment is never code) and use :class:`Source` to move between meaningful tokens.
"""

from __future__ import annotations

import bisect
import itertools
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from operator import attrgetter
from typing import Any, NamedTuple

from cuda2rocm.hazards.targets import Target
from cuda2rocm.model import Applicability, Edit
from cuda2rocm.source.structure import (
    Function,
    Innermost,
    Launch,
    find_functions,
    find_launches,
    match_brackets,
    split_args,
)
from cuda2rocm.source.tokens import IDENT, NUMBER, PUNCT, TRIVIA, LineIndex, Token, all_indexes


@dataclass(frozen=True)
class Hit:
    """One hazard found by a check: the token it points at, the message, and an optional fix (its edits and
    how far they can be trusted: ``safe`` unless the check says otherwise).

    ``covered``: the hazard needs no edit of its own once the rest of its warp-width group is fixed (a use of a
    ``WARP_SIZE`` macro whose definition is fixed, a per-warp array already large enough for 64-wide
    wavefronts). ``note``: what ``--fix-hazards`` does with the hit's group (set by :mod:`hazards.groups`).
    """

    rule: str
    index: int
    message: str
    edits: tuple[Edit, ...] = ()
    covered: bool = False
    note: str = ""
    applicability: Applicability = Applicability.SAFE


class Inherited(NamedTuple):
    """The constants a file sees from the headers it includes (built by :mod:`cuda2rocm.project.includes`):
    each name's value tokens (read in the header) and where it is defined (the header's path and line)."""

    env: Mapping[str, Sequence[Token]]
    origins: Mapping[str, tuple[str, int]]
    headers: tuple[str, ...] = ()  # the project headers the file's includes read, in the order first read
    warp_functions: frozenset[str] = frozenset()  # device functions of those headers that use warp primitives
    #: the function-like macros of those headers that hold ``__launch_bounds__``: name -> (parameters, body)
    bounds_macros: Mapping[str, tuple[tuple[str, ...], Sequence[Token]]] = {}

    def where(self, name: str) -> str:
        """``WARP_W = 32 at include/cfg.h:12``."""
        path, line = self.origins[name]
        return f"{name} = {' '.join(t.src for t in self.env[name])} at {path}:{line}"


NOTHING_INHERITED = Inherited({}, {}, (), frozenset())


@dataclass
class Source:
    tokens: Sequence[Token]
    text: str
    path: str
    target: Target
    rocm: str | None = None
    inherited: Inherited = NOTHING_INHERITED
    cache: dict[object, Any] = field(default_factory=dict, repr=False)

    @cached_property
    def code(self) -> list[int]:
        return list(itertools.compress(range(len(self.tokens)), map(_IS_CODE.__getitem__, self._kinds)))

    @cached_property
    def pairs(self) -> dict[int, int]:
        return match_brackets(self.tokens)

    @cached_property
    def functions(self) -> list[Function]:
        return find_functions(self.tokens, self.pairs)

    @cached_property
    def _innermost(self) -> Innermost:
        return Innermost(self.functions)

    @cached_property
    def launches(self) -> list[Launch]:
        return find_launches(self.tokens, self.pairs)

    @cached_property
    def lines(self) -> LineIndex:
        return LineIndex(self.text)

    @cached_property
    def _srcs(self) -> list[str]:
        return list(map(attrgetter("src"), self.tokens))

    @cached_property
    def _kinds(self) -> list[str]:
        return list(map(attrgetter("kind"), self.tokens))

    @property
    def token_texts(self) -> list[str]:
        """The text of every token, by index (read-only)."""
        return self._srcs

    def src(self, i: int) -> str:
        srcs = self._srcs
        return srcs[i] if 0 <= i < len(srcs) else ""

    def kind(self, i: int) -> str:
        """The kind of token ``i``; "" past either end (as :meth:`src`), where :meth:`next` and :meth:`prev`
        land: ``len(tokens)`` and -1 (indexing ``tokens`` there raises or reads the last token)."""
        kinds = self._kinds
        return kinds[i] if 0 <= i < len(kinds) else ""

    def positions(self, text: str) -> list[int]:
        """Indexes of every token (of any kind, directives included) whose text is ``text``, ascending."""
        key = ("positions", text)
        found = self.cache.get(key)
        if found is None:  # a name absent from the text costs one substring search, not a scan of the tokens
            found = self.cache[key] = all_indexes(self._srcs, text) if text in self.text else []
        return found

    def of_kind(self, kind: str) -> list[int]:
        """Indexes of every token of ``kind``, ascending."""
        key = ("kind", kind)
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = all_indexes(self._kinds, kind)
        return found

    def kind_range(self, kind: str, start: int, end: int) -> list[int]:
        """Indexes in [start, end) of the tokens of ``kind``, ascending."""
        found = self.of_kind(kind)
        return found[bisect.bisect_left(found, start) : bisect.bisect_left(found, end)]

    def tokens_named(self, texts: Iterable[str], start: int = 0, end: int | None = None) -> list[int]:
        """Indexes in [start, end) of the tokens whose text is one of ``texts``, ascending."""
        stop = len(self.tokens) if end is None else end
        return _within([self.positions(t) for t in texts], start, stop)

    def next(self, i: int, k: int = 1) -> int:
        """Index of the k-th code token after token ``i`` (k < 0: before); ``len(tokens)``/-1 past the ends."""
        # a trivia token counts from the code token that follows it
        code = self.code
        ci = bisect.bisect_left(code, i)
        ci += k if ci < len(code) and code[ci] == i else (k - 1 if k > 0 else k)
        if 0 <= ci < len(code):
            return code[ci]
        return len(self.tokens) if k > 0 else -1

    def prev(self, i: int, k: int = 1) -> int:
        return self.next(i, -k)

    @cached_property
    def _ident_index(self) -> dict[str, list[int]]:
        """Positions of the identifiers outside directives, by name (each list ascending)."""
        index: dict[str, list[int]] = {}
        tokens, srcs = self.tokens, self._srcs
        for i in self.of_kind(IDENT):
            if not tokens[i].pp:
                found = index.get(srcs[i])
                if found is None:
                    index[srcs[i]] = [i]
                else:
                    found.append(i)
        return index

    def idents(self, names: frozenset[str] | set[str], start: int = 0, end: int | None = None) -> Iterator[int]:
        """Code tokens (outside directives) that are identifiers named in ``names``, in [start, end)."""
        stop = len(self.tokens) if end is None else end
        if stop - start < len(names):  # a short range of a big file with many names: read the range itself
            tokens = self.tokens
            return (i for i in self.kind_range(IDENT, start, stop) if not tokens[i].pp and tokens[i].src in names)
        index = self._ident_index
        return iter(_within([index[n] for n in names if n in index], start, stop))

    def idents_prefixed(self, prefixes: tuple[str, ...]) -> Iterator[int]:
        """Code identifiers (outside directives) whose name starts with one of ``prefixes``, ascending."""
        names = frozenset(n for n in self._ident_index if n.startswith(prefixes))
        return self.idents(names) if names else iter(())

    def is_call(self, i: int) -> bool:
        j = self.next(i)
        return self.src(j) == "(" and j in self.pairs

    def args(self, name_index: int) -> list[tuple[int, int]]:
        """Argument token ranges of the call whose callee name is at ``name_index``."""
        j = self.next(name_index)
        if self.src(j) != "(":
            return []
        return split_args(self.tokens, j, self.pairs)

    def top_level(self, start: int, end: int) -> list[int]:
        """Code tokens of [start, end) outside any bracket pair that opens inside the range."""
        out: list[int] = []
        j = start
        while j < end:
            if self.tokens[j].kind not in TRIVIA:
                out.append(j)
            if self.src(j) in ("(", "[", "{") and j in self.pairs and self.pairs[j] < end:
                j = self.pairs[j]
            j += 1
        return out

    def enclosing_call(self, i: int) -> int:
        """Callee-name index of the innermost call whose parentheses contain token ``i`` (-1 if none)."""
        j = self.prev(i)
        while j >= 0:
            s = self.src(j)
            if s in (")", "]", "}") and j in self.pairs:
                j = self.prev(self.pairs[j])
                continue
            if s == "(" and self.pairs.get(j, -1) > i:
                name = self.prev(j)
                return name if self.tokens[name].kind == IDENT else -1
            if s in (";", "{", "}"):
                return -1
            j = self.prev(j)
        return -1

    def range_code(self, start: int, end: int) -> list[int]:
        """Indexes of the code tokens in [start, end), in order."""
        return self.code[bisect.bisect_left(self.code, start) : bisect.bisect_left(self.code, end)]

    def text_of(self, start: int, end: int) -> str:
        return "".join(t.src for t in self.tokens[start:end]).strip()

    def compact(self, start: int, end: int) -> str:
        """Code text of a range without whitespace/comments (for pattern checks)."""
        return "".join(self.src(i) for i in self.range_code(start, end))

    def function_at(self, i: int) -> Function | None:
        """The innermost function whose body contains token ``i``."""
        return self._innermost.at(i)

    def device_functions(self) -> list[Function]:
        # qualifiers are these tokens' texts: without one, no function is device code (and none is searched)
        if not self.positions("__global__") and not self.positions("__device__"):
            return []
        return [f for f in self.functions if f.is_device]

    def loc(self, i: int) -> tuple[int, int]:
        return self.lines.line_col(self.tokens[i].offset)

    def is_number(self, i: int) -> bool:
        return self.tokens[i].kind == NUMBER if 0 <= i < len(self.tokens) else False

    def is_punct(self, i: int, *srcs: str) -> bool:
        return 0 <= i < len(self.tokens) and self.tokens[i].kind == PUNCT and self.src(i) in srcs

    def statement_end(self, i: int) -> int:
        """Index of the ``;`` (or closing bracket) that ends the statement containing token ``i``."""
        j = i
        while j < len(self.tokens):
            s = self.src(j)
            if self.tokens[j].kind == PUNCT and s in ("(", "[", "{") and j in self.pairs and s != "{":
                j = self.pairs[j] + 1
                continue
            if self.tokens[j].kind == PUNCT and s in (";", "}", ")", "]", "{"):
                return j
            j += 1
        return j

    def replace(self, i: int, text: str, rule: str) -> Edit:
        tok = self.tokens[i]
        return Edit(tok.offset, tok.end, text, rule)

    def replace_range(self, first: int, last: int, text: str, rule: str) -> Edit:
        return Edit(self.tokens[first].offset, self.tokens[last].end, text, rule)


#: whether a token of each kind is code (not whitespace, a newline, an escaped newline or a comment)
_IS_CODE: dict[str, bool] = defaultdict(lambda: True, dict.fromkeys(TRIVIA, False))


def _within(lists: list[list[int]], start: int, stop: int) -> list[int]:
    """The members in [start, stop) of ascending ``lists``, merged ascending: only the slices in range are
    merged, so a query over a small range of a big file costs the size of its answer, not of the file."""
    parts = [part[bisect.bisect_left(part, start) : bisect.bisect_left(part, stop)] for part in lists if part]
    parts = [part for part in parts if part]
    if len(parts) <= 1:
        return parts[0] if parts else []
    return sorted(i for part in parts for i in part)
