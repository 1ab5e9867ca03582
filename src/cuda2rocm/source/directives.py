"""What a C/C++/CUDA file tells the preprocessor, read off the lossless token stream.

:func:`file_facts` lists, in source order, the directives that decide which values a translation unit sees
(``#define``/``#undef``, ``#include``, the conditionals, ``#pragma once``) and the file's named integer
constants (``constexpr``/``const`` declarations with an initialiser, ``enum`` members), each with its line.
It is the one reader of those facts: the hazard analysis's own-file values (``hazards/symbols.py``) and the
project model's cross-file walk (``project/includes.py``) both read what it gives.

Nothing is evaluated here: a value is its code tokens, a condition its tokens as written.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from cuda2rocm.source.tokens import HEADER, IDENT, NL, PUNCT, STRING, TRIVIA, LineIndex, Token, all_indexes

#: the directives :func:`file_facts` keeps (the others, ``#error``, ``#line``..., decide no value)
CONDITIONALS = frozenset({"if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif"})
_KEPT = CONDITIONALS | {"define", "undef", "include", "include_next", "pragma"}
_DECL_WORDS = frozenset({"constexpr", "const"})


class Fact(NamedTuple):
    """One fact of a file, in source order.

    ``op``: a directive name (``define``, ``undef``, ``include``, ``if``, ``ifdef``, ``ifndef``, ``elif``,
    ``else``, ``endif``, ``once`` for ``#pragma once``), ``const`` (a constant declaration) or ``enum`` (an
    enumerator). ``name``: the macro or constant named, the include operand as written (``"a.h"``, ``<b.h>``),
    or "" for conditions. ``body``: the value's or the condition's code tokens as text, one space apart
    (re-tokenizing it gives the same code tokens). ``line``: 1-based.
    """

    op: str
    name: str
    body: str
    line: int


def _code_text(tokens: Sequence[Token], start: int, end: int) -> str:
    return " ".join(t.src for t in tokens[start:end] if t.kind not in TRIVIA)


def include_operands(tokens: Sequence[Token]) -> Iterator[int]:
    """Indexes of the operand token (``<...>`` or ``"..."``) of every #include directive."""
    srcs = [t.src for t in tokens]  # the candidates are found at C speed, then checked one by one
    for i in sorted(all_indexes(srcs, "include") + all_indexes(srcs, "include_next")):
        tok = tokens[i]
        if tok.kind != IDENT or not tok.pp:
            continue
        j = i + 1
        while j < len(tokens) and tokens[j].kind in TRIVIA and tokens[j].kind != NL:
            j += 1
        if j < len(tokens) and tokens[j].kind in (HEADER, STRING):
            yield j


def _directives(tokens: Sequence[Token], index: LineIndex) -> Iterator[tuple[int, Fact]]:
    """(token index, fact) of the kept directives."""
    n = len(tokens)
    srcs = [t.src for t in tokens]
    for h in all_indexes(srcs, "#"):
        if not tokens[h].pp or tokens[h].kind != PUNCT or not _first_on_line(tokens, h):
            continue
        j = _skip_blank(tokens, h + 1)
        if j >= n or tokens[j].kind != IDENT or not tokens[j].pp or tokens[j].src not in _KEPT:
            continue
        word = tokens[j].src
        end = j + 1
        while end < n and tokens[end].pp and tokens[end].kind != NL:
            end += 1
        line = index.line(tokens[h].offset)
        k = _skip_blank(tokens, j + 1)
        if word in ("define", "undef"):
            if k >= end or tokens[k].kind != IDENT:
                continue
            if word == "define" and k + 1 < end and tokens[k + 1].src == "(":
                continue  # a function-like macro: no value of its own
            yield h, Fact(word, tokens[k].src, _code_text(tokens, k + 1, end), line)
        elif word in ("include", "include_next"):
            if k < end and tokens[k].kind in (HEADER, STRING):
                yield h, Fact("include", tokens[k].src, "", line)
        elif word == "pragma":
            if k < end and tokens[k].src == "once":
                yield h, Fact("once", "", "", line)
        elif word in ("ifdef", "ifndef", "elifdef", "elifndef"):
            name = tokens[k].src if k < end and tokens[k].kind == IDENT else ""
            yield h, Fact(word, name, "", line)
        else:
            yield h, Fact(word, "", _code_text(tokens, k, end), line)


def _first_on_line(tokens: Sequence[Token], i: int) -> bool:
    j = i - 1
    while j >= 0 and tokens[j].kind in TRIVIA and tokens[j].kind != NL:
        j -= 1
    return j < 0 or tokens[j].kind == NL


def _skip_blank(tokens: Sequence[Token], j: int) -> int:
    while j < len(tokens) and tokens[j].kind in TRIVIA and tokens[j].kind != NL:
        j += 1
    return j


def _code(tokens: Sequence[Token]) -> list[int]:
    """Indexes of the code tokens outside directives."""
    return [i for i, t in enumerate(tokens) if not t.pp and t.kind not in TRIVIA]


def _value_end(tokens: Sequence[Token], code: list[int], pos: dict[int, int], pairs: dict[int, int], j: int,
               stops: tuple[str, ...], limit: int) -> int:
    """Position in ``code`` of the first top-level token of ``stops`` from ``j`` on (brackets are skipped whole),
    or of the first token at or past token index ``limit``."""
    while j < len(code) and code[j] < limit:
        t = tokens[code[j]]
        if t.kind == PUNCT and t.src in ("(", "[", "{") and code[j] in pairs:
            j = pos.get(pairs[code[j]], len(code)) + 1
            continue
        if t.kind == PUNCT and t.src in stops:
            break
        j += 1
    return j


def constants(tokens: Sequence[Token], pairs: dict[int, int], start: int = 0, end: int | None = None,
              *, const_only: bool = True) -> Iterator[tuple[int, int, int]]:
    """``(name, value start, value end)`` token indexes of the declarations with an initialiser in
    ``[start, end)``: ``T name = value`` where a type word precedes the name (with ``const_only``: a
    ``const``/``constexpr`` among the words before it). The value runs to the next top-level ``;``, ``,``, ``)``
    or ``}``. Directives are not code here."""
    stop = len(tokens) if end is None else end
    code = [i for i in _code(tokens) if start <= i < stop]
    pos = {t: k for k, t in enumerate(code)}
    for k, i in enumerate(code):
        if tokens[i].src != "=" or tokens[i].kind != PUNCT or k < 2:
            continue
        name, before = code[k - 1], code[k - 2]
        if tokens[name].kind != IDENT or tokens[before].kind != IDENT:
            continue
        if const_only and not _has_const(tokens, code, k - 2):
            continue
        j = _value_end(tokens, code, pos, pairs, k + 1, (";", ",", ")", "}"), stop)
        yield name, (code[k + 1] if k + 1 < len(code) else stop), (code[j] if j < len(code) else stop)


def _has_const(tokens: Sequence[Token], code: list[int], k: int) -> bool:
    while k >= 0 and tokens[code[k]].kind == IDENT:
        if tokens[code[k]].src in _DECL_WORDS:
            return True
        k -= 1
    return False


def enumerators(tokens: Sequence[Token], pairs: dict[int, int]) -> Iterator[tuple[int, str]]:
    """``(name index, value text)`` of the members of every ``enum [class|struct] [Name] [: T] { ... }``:
    an explicit ``= value``, or the previous member's value plus one (``0`` for the first)."""
    code = _code(tokens)
    pos = {t: k for k, t in enumerate(code)}
    for k, i in enumerate(code):
        if tokens[i].src != "enum" or tokens[i].kind != IDENT:
            continue
        j = k + 1
        while j < len(code) and tokens[code[j]].src not in ("{", ";", "(", ")", "="):
            j += 1
        if j >= len(code) or tokens[code[j]].src != "{" or code[j] not in pairs:
            continue
        close = pairs[code[j]]
        previous = ""
        j += 1
        while j < len(code) and code[j] < close and tokens[code[j]].kind == IDENT:
            name = code[j]
            if j + 1 < len(code) and tokens[code[j + 1]].src == "=":
                m = _value_end(tokens, code, pos, pairs, j + 2, (",",), close)
                value = _code_text(tokens, code[j + 2], code[m] if m < len(code) else close)
                j = m
            else:
                value = f"( {previous} ) + 1" if previous else "0"
                j += 1
            if value:
                yield name, value
            previous = tokens[name].src
            if j < len(code) and tokens[code[j]].src == ",":
                j += 1


def file_facts(tokens: Sequence[Token], pairs: dict[int, int], index: LineIndex) -> tuple[Fact, ...]:
    """The file's directives and constants, in source order (see :class:`Fact`)."""
    found: list[tuple[int, Fact]] = list(_directives(tokens, index))
    for name, a, b in constants(tokens, pairs):
        found.append((name, Fact("const", tokens[name].src, _code_text(tokens, a, b), index.line(tokens[name].offset))))
    for name, value in enumerators(tokens, pairs):
        found.append((name, Fact("enum", tokens[name].src, value, index.line(tokens[name].offset))))
    found.sort(key=lambda item: item[0])
    return tuple(f for _, f in found)
