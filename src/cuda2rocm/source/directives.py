"""Preprocessor directives of a C/C++/CUDA file, read off the lossless token stream.

Below ``translate``, ``hazards`` and the project model, so that every reader of ``#include`` operands and of
``#define``/``#if`` lines (convert's header handling, the file plan, the hazard constants, the include graph)
finds them the same way.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from cuda2rocm.source.tokens import HEADER, IDENT, NL, STRING, TRIVIA, Token, all_indexes


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


class Directive(NamedTuple):
    """One directive: the index of its ``#``, its word (``define``, ``ifdef``; "" for a null or malformed one)
    and that word's index (-1 without one), and the indexes of the non-trivia tokens after the word, in order."""

    hash_index: int
    word: str
    word_index: int
    args: tuple[int, ...]


def directives(tokens: Sequence[Token]) -> Iterator[Directive]:
    """Every directive of the file, in order (a ``#`` that starts a directive: the first token of its run of
    ``pp`` tokens)."""
    srcs = [t.src for t in tokens]
    n = len(tokens)
    for i in all_indexes(srcs, "#"):
        if not tokens[i].pp or (i > 0 and tokens[i - 1].pp):
            continue
        j = i + 1
        code: list[int] = []
        while j < n and tokens[j].pp and tokens[j].kind != NL:
            if tokens[j].kind not in TRIVIA:
                code.append(j)
            j += 1
        if code and tokens[code[0]].kind == IDENT:
            yield Directive(i, tokens[code[0]].src, code[0], tuple(code[1:]))
        else:
            yield Directive(i, "", -1, tuple(code))


def object_macro(tokens: Sequence[Token], d: Directive) -> tuple[int, list[Token]] | None:
    """``#define NAME body...``: the index of ``NAME`` and the body's non-trivia tokens; None for another
    directive, a function-like macro (``NAME(`` with no space) or a define without a name."""
    if d.word != "define" or not d.args or tokens[d.args[0]].kind != IDENT:
        return None
    name = d.args[0]
    if name + 1 < len(tokens) and tokens[name + 1].src == "(":
        return None
    return name, [tokens[k] for k in d.args[1:]]


def function_macro(tokens: Sequence[Token], d: Directive) -> tuple[int, list[str], list[Token]] | None:
    """``#define NAME(a, b) body...``: the index of ``NAME``, the parameter names and the body's non-trivia tokens;
    None for another directive or an object-like macro."""
    if d.word != "define" or len(d.args) < 2 or tokens[d.args[0]].kind != IDENT:
        return None
    name = d.args[0]
    if name + 1 >= len(tokens) or tokens[name + 1].src != "(":
        return None
    close = next((k for k, a in enumerate(d.args) if tokens[a].src == ")"), -1)
    if close < 0:
        return None
    params = [tokens[a].src for a in d.args[2:close] if tokens[a].kind == IDENT]
    return name, params, [tokens[k] for k in d.args[close + 1:]]

