"""Light structure over the token stream: bracket pairs, functions and kernel launches.

This is not a C++ parser: it recognises the shapes migration needs (``__global__`` functions and their
bodies, ``<<<...>>>`` launches) from the token stream, and degrades to "not found" on code it does not
understand, never to an exception.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from operator import attrgetter
from typing import NamedTuple

from cuda2rocm.source.tokens import IDENT, NL, PUNCT, TRIVIA, Token, next_code, prev_code

_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = {")": "(", "]": "[", "}": "{"}
_BRACKETS = frozenset(_OPEN) | frozenset(_CLOSE)

CUDA_QUALIFIERS = frozenset({"__global__", "__device__", "__host__", "__forceinline__", "__noinline__"})


def code_indexes(tokens: Sequence[Token]) -> list[int]:
    return [i for i, t in enumerate(tokens) if t.kind not in TRIVIA]


def match_brackets(tokens: Sequence[Token]) -> dict[int, int]:
    """Map each bracket token index to its partner's index (both directions); unbalanced ones are left out.

    Brackets inside preprocessor directives are matched separately from code, so a ``#define`` with an
    unbalanced body does not unbalance the rest of the file: a directive's brackets pair only within one line
    (an escaped newline continues the line).
    """
    pairs: dict[int, int] = {}
    code: list[int] = []
    directive: list[int] = []
    directive_line = -1
    newlines: list[int] | None = None
    for i in [i for i, t in enumerate(tokens) if t.src in _BRACKETS]:  # only PUNCT tokens have these texts
        tok = tokens[i]
        stack = code
        if tok.pp:
            if newlines is None:
                newlines = [k for k, t in enumerate(tokens) if t.kind == NL]
            line = bisect.bisect_left(newlines, i)
            if line != directive_line:
                directive.clear()
                directive_line = line
            stack = directive
        if tok.src in _OPEN:
            stack.append(i)
        else:
            _pair(tokens, stack, i, pairs)
    return pairs


def _pair(tokens: Sequence[Token], stack: list[int], i: int, pairs: dict[int, int]) -> int:
    """Pair the closing bracket ``i`` with the innermost opener of its kind on ``stack`` (openers of other kinds
    above it are dropped, unpaired); the opener's index, or -1 when ``stack`` has none."""
    want = _CLOSE[tokens[i].src]
    while stack and tokens[stack[-1]].src != want:
        stack.pop()
    if not stack:
        return -1
    j = stack.pop()
    pairs[i] = j
    pairs[j] = i
    return j


def match_span(tokens: Sequence[Token], open_index: int) -> dict[int, int]:
    """The pairs :func:`match_brackets` gives the code bracket at ``open_index`` and every bracket up to its
    partner, read from that span alone (empty when the bracket has no partner).

    Equal to the whole file's matching there: the brackets before ``open_index`` sit below it on the stack, and
    a closer that would reach them has popped ``open_index`` first, which then has no partner in either view;
    directive brackets pair within their line, and no directive line starts before a code token and continues
    after it. A pass that needs one call's arguments reads that call, not the file."""
    if open_index >= len(tokens) or tokens[open_index].src not in _OPEN or tokens[open_index].pp:
        raise ValueError(f"token {open_index} is not an opening bracket of code")
    pairs: dict[int, int] = {}
    code = [open_index]
    directive: list[int] = []
    for i in range(open_index + 1, len(tokens)):
        tok = tokens[i]
        if tok.kind == NL:
            directive.clear()  # a directive's brackets pair only within its line
            continue
        if tok.src not in _BRACKETS:
            continue
        stack = directive if tok.pp else code
        if tok.src in _OPEN:
            stack.append(i)
            continue
        j = _pair(tokens, stack, i, pairs)
        if j == open_index:
            return pairs
        if j < 0 and stack is code:
            return {}  # this closer popped ``open_index``: it has no partner
    return {}


class Launch(NamedTuple):
    """``kernel<<<config...>>>(args...)``; indexes into the token list."""

    name: str
    name_index: int  # last token of the callee expression (usually its name)
    open_index: int  # the ``<<<`` token
    close_index: int  # the final ``>`` of ``>>>``
    config: tuple[tuple[int, int], ...]  # [start, end) token ranges of each config argument
    args_open: int  # ``(`` after ``>>>``; -1 if missing
    args_close: int


def _split_args(tokens: Sequence[Token], start: int, end: int, pairs: dict[int, int]) -> list[tuple[int, int]]:
    """Split tokens[start:end] at top-level commas (templates ``<...>`` are not tracked; the commas of a launch
    configuration ``k<<<g, b>>>(x)`` inside the range are not top-level)."""
    parts: list[tuple[int, int]] = []
    i = part = start
    launches = 0  # <<< not closed yet
    while i < end:
        tok = tokens[i]
        if tok.kind == PUNCT and tok.src in _OPEN and i in pairs and pairs[i] < end:
            i = pairs[i] + 1
            continue
        if tok.kind == PUNCT:
            if tok.src == "," and not launches:
                parts.append((part, i))
                part = i + 1
            elif tok.src == "<<<":
                launches += 1
            elif launches and tok.src == ">>" and i + 1 < end and tokens[i + 1].src == ">":
                launches -= 1
                i += 1
        i += 1
    if any(tokens[k].kind not in TRIVIA for k in range(part, end)) or parts:
        parts.append((part, end))
    return parts


def split_args(tokens: Sequence[Token], open_index: int, pairs: dict[int, int]) -> list[tuple[int, int]]:
    """Top-level comma-separated ranges inside the bracket pair that opens at ``open_index``."""
    close = pairs.get(open_index, -1)
    if close < 0:
        return []
    return _split_args(tokens, open_index + 1, close, pairs)


def _next_code(tokens: Sequence[Token], i: int) -> int:
    """Token ``i`` if it is code, else the next code token (directives skipped as by ``next_code``)."""
    return i if 0 <= i < len(tokens) and tokens[i].kind not in TRIVIA else next_code(tokens, i)


def _prev_code(tokens: Sequence[Token], i: int) -> int:
    """Token ``i`` if it is code, else the previous code token (directives skipped as by ``prev_code``)."""
    return i if 0 <= i < len(tokens) and tokens[i].kind not in TRIVIA else prev_code(tokens, i)


def find_launches(tokens: Sequence[Token], pairs: dict[int, int] | None = None) -> list[Launch]:
    pairs = match_brackets(tokens) if pairs is None else pairs
    launches: list[Launch] = []
    n = len(tokens)
    for i in [i for i, t in enumerate(tokens) if t.src == "<<<"]:
        if tokens[i].kind != PUNCT:
            continue
        # find ``>>`` immediately followed by ``>`` at bracket depth 0
        j = i + 1
        close = -1
        while j < n - 1:
            t = tokens[j]
            if t.kind == PUNCT and t.src in _OPEN and j in pairs:
                j = pairs[j] + 1
                continue
            # another launch's <<<, or the closer of a bracket this <<< is inside: not this launch's configuration
            if t.kind == PUNCT and t.src in (";", "{", "}", "<<<", ")", "]"):
                break
            if t.kind == PUNCT and t.src == ">>" and tokens[j + 1].kind == PUNCT and tokens[j + 1].src == ">":
                close = j + 1
                break
            j += 1
        if close < 0:
            continue
        name_index = _prev_code(tokens, i - 1)
        if name_index < 0:
            continue
        name_tok = tokens[name_index]
        if name_tok.kind == PUNCT and name_tok.src in (">", ">>"):  # k<T><<<...>>>, k<v<T>><<<...>>>: template args
            depth = 0
            k = name_index
            while k >= 0:
                s = tokens[k].src
                if s == ">":
                    depth += 1
                elif s == ">>":
                    depth += 2
                elif s == "<":
                    depth -= 1
                if depth == 0:
                    break
                k -= 1
            name_index = _prev_code(tokens, k - 1)
            if name_index < 0:
                continue
        config = tuple(_split_args(tokens, i + 1, close - 1, pairs))
        args_open = _next_code(tokens, close + 1)
        if args_open < n and tokens[args_open].src == "(" and args_open in pairs:
            args_close = pairs[args_open]
        else:
            args_open = args_close = -1
        launches.append(
            Launch(tokens[name_index].src, name_index, i, close, config, args_open, args_close)
        )
    return launches


class Function(NamedTuple):
    """A function definition with a body; ``qualifiers`` holds the CUDA execution-space keywords seen."""

    name: str
    name_index: int
    qualifiers: frozenset[str]
    params_open: int
    params_close: int
    body_open: int
    body_close: int

    @property
    def is_kernel(self) -> bool:
        return "__global__" in self.qualifiers

    @property
    def is_device(self) -> bool:
        return bool(self.qualifiers & {"__global__", "__device__"})


class Innermost:
    """The innermost function whose span contains a token, by bisection (``inside`` of a function: the
    strictly inner tokens of its span, which runs from ``params_open`` or from ``body_open``).

    Spans are bracket pairs, or a parameter list followed by its body, so two of them are nested or disjoint;
    the walk from the last span opening before the token up through its enclosing spans is as long as the
    nesting, not the file."""

    def __init__(self, functions: Sequence[Function], from_params: bool = False) -> None:
        start_of = attrgetter("params_open" if from_params else "body_open")
        self._by_start = sorted(functions, key=start_of)
        self._starts = list(map(start_of, self._by_start))
        self._parents: list[int] = []  # index in _by_start of the innermost span containing each (-1: none)
        stack: list[int] = []
        for k, start in enumerate(self._starts):
            while stack and self._by_start[stack[-1]].body_close < start:
                stack.pop()
            self._parents.append(stack[-1] if stack else -1)
            stack.append(k)

    def at(self, i: int) -> Function | None:
        k = bisect.bisect_left(self._starts, i) - 1
        while k >= 0:
            f = self._by_start[k]
            if f.body_close > i:
                return f
            k = self._parents[k]
        return None


_NOT_FUNCTIONS = frozenset({"if", "for", "while", "switch", "catch", "return", "sizeof", "decltype", "alignof",
                            "__launch_bounds__", "__attribute__", "__declspec", "alignas", "defined"})
_DECL_STOP = frozenset({";", "{", "}"})


def find_functions(tokens: Sequence[Token], pairs: dict[int, int] | None = None) -> list[Function]:
    """Function definitions: ``name ( params ) [qualifiers...] {`` with the CUDA qualifiers before the name."""
    pairs = match_brackets(tokens) if pairs is None else pairs
    found: list[Function] = []
    n = len(tokens)
    for i in [i for i, t in enumerate(tokens) if t.src == "("]:
        tok = tokens[i]
        if tok.kind != PUNCT or tok.pp or i not in pairs:
            continue
        name_index = _prev_code(tokens, i - 1)
        if name_index < 0 or tokens[name_index].kind != IDENT or tokens[name_index].src in _NOT_FUNCTIONS:
            continue
        close = pairs[i]
        # after the parameter list: cv/ref qualifiers, noexcept(...), -> trailing type, then '{'
        j = _next_code(tokens, close + 1)
        while j < n and tokens[j].src not in _DECL_STOP and tokens[j].src not in ("=", ","):
            if tokens[j].src in _OPEN and j in pairs:
                j = pairs[j]
            j = _next_code(tokens, j + 1)
        if j >= n or tokens[j].src != "{" or j not in pairs:
            continue
        # an initializer list `: a(x), b(y) {` also ends in '{'; its '(' belongs to a member, not a function
        prev = _prev_code(tokens, name_index - 1)
        if prev >= 0 and tokens[prev].src in (":", ",", ".", "->", "=", "(", "return", "new"):
            continue
        quals: set[str] = set()
        k = prev
        while k >= 0 and tokens[k].src not in _DECL_STOP and not tokens[k].pp:
            if tokens[k].src in CUDA_QUALIFIERS:
                quals.add(tokens[k].src)
            if tokens[k].src in _CLOSE and k in pairs:
                k = pairs[k]
            k = _prev_code(tokens, k - 1)
        found.append(Function(tokens[name_index].src, name_index, frozenset(quals), i, close, j, pairs[j]))
    return found
