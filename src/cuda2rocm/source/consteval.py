"""Evaluate integer constant expressions found in source: literals, ``#define``, ``constexpr``/``const``
values, template arguments, ``sizeof(type)``, and the usual arithmetic/bitwise operators.

Never executes anything: a tiny recursive-descent evaluator over tokens. Anything it does not understand
evaluates to ``None`` ("unknown"), never to a guess.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from importlib import resources

from cuda2rocm.lazyre import lazy
from cuda2rocm.source.tokens import IDENT, NUMBER, PUNCT, TRIVIA, Token

_INT_RE = lazy(r"(0[xX][0-9a-fA-F']+|0[bB][01']+|[0-9][0-9']*)([uUlL]*)$")


@lru_cache(maxsize=1)
def type_sizes() -> dict[str, int]:
    text = resources.files("cuda2rocm.source").joinpath("data/ctypes.csv").read_text(encoding="utf-8")
    return {row["type"]: int(row["bytes"]) for row in csv.DictReader(text.splitlines())}


@lru_cache(maxsize=4096)  # a file's numbers repeat (0, 1, 32...): each text is parsed once per process
def parse_int(text: str) -> int | None:
    """Value of a C integer literal (hex, binary, octal, decimal, with suffixes and digit separators)."""
    m = _INT_RE().match(text)
    if not m:
        return None
    body = m.group(1).replace("'", "")
    base = 16 if body[:2] in ("0x", "0X") else 2 if body[:2] in ("0b", "0B") else 8 if body[:1] == "0" else 10
    try:
        return int(body[2:] if base == 2 else body, base)
    except ValueError:  # no literal: ``08`` (8 is no octal digit), ``0x'``; the compiler rejects these
        return None


_CASTS = frozenset({"static_cast", "reinterpret_cast", "const_cast"})
_BINARY = [("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", ">", "<=", ">="), ("<<", ">>"),
           ("+", "-"), ("*", "/", "%")]


#: how deep brackets, casts, ternaries and unary operators may nest (counted across the names an expression
#: expands): a level is at most 16 Python frames of the descent, so a deeper expression is unknown, not a
#: RecursionError
_MAX_NESTING = 40


class _Parser:
    def __init__(self, toks: Sequence[Token], env: Mapping[str, Sequence[Token]], depth: int,
                 nesting: int = 0) -> None:
        self.toks = [t for t in toks if t.kind not in TRIVIA]
        self.pos = 0
        self.env = env
        self.depth = depth
        self.nesting = nesting

    def peek(self) -> str:
        return self.toks[self.pos].src if self.pos < len(self.toks) else ""

    def take(self) -> Token:
        tok = self.toks[self.pos]
        self.pos += 1
        return tok

    def parse(self) -> int | None:
        value = self.ternary()
        return value if self.pos == len(self.toks) else None

    def ternary(self) -> int | None:
        cond = self.binary(0)
        if self.peek() != "?":
            return cond
        self.take()
        a = self._nested(self.ternary)
        if self.peek() != ":":
            return None
        self.take()
        b = self._nested(self.ternary)
        return None if cond is None else (a if cond else b)

    def binary(self, level: int) -> int | None:
        if level == len(_BINARY):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek() in _BINARY[level] and self.pos < len(self.toks) and self.toks[self.pos].kind == PUNCT:
            op = self.take().src
            right = self.binary(level + 1)
            left = _apply(op, left, right)
        return left

    def unary(self) -> int | None:
        s = self.peek()
        if s in ("-", "+", "~", "!"):
            self.take()
            v = self._nested(self.unary)
            return None if v is None else {"-": -v, "+": v, "~": ~v, "!": int(not v)}[s]
        return self.primary()

    def _nested(self, parse: Callable[[], int | None]) -> int | None:
        """``parse()`` one level deeper: every recursion of the descent (brackets, casts, ternary branches, unary
        operators) goes through here."""
        if self.nesting >= _MAX_NESTING:
            return None  # too deep: the tokens left unread make the whole expression unknown
        self.nesting += 1
        try:
            return parse()
        finally:
            self.nesting -= 1

    def primary(self) -> int | None:
        if self.pos >= len(self.toks):
            return None
        tok = self.take()
        if tok.src == "(":
            return self._paren()
        if tok.kind == NUMBER:
            return parse_int(tok.src)
        if tok.kind == IDENT and tok.src == "sizeof":
            return self._sizeof()
        if tok.kind == IDENT and tok.src in _CASTS and self.peek() == "<":
            return self._cast()
        if tok.kind == IDENT and self.peek() == "::":
            return self._qualified(tok.src)
        if tok.kind == IDENT and self.peek() == "(" and tok.src in type_sizes():
            return self._nested(self.primary)  # a functional cast: size_t(x)
        if tok.kind == IDENT:
            return self._name(tok.src)
        if tok.src == "::" and self.peek() and self.toks[self.pos].kind == IDENT:
            return self._qualified(self.take().src)  # ::NAME
        return None

    def _cast(self) -> int | None:
        """``static_cast<T>(expr)``: the value of ``expr`` (the type is read past, up to its closing ``>``)."""
        depth = 0
        while self.pos < len(self.toks):
            s = self.take().src
            depth += {"<": 1, ">": -1, ">>": -2}.get(s, 0)
            if depth <= 0:
                break
        if self.peek() != "(":
            return None
        return self._nested(self.primary)

    def _qualified(self, first: str) -> int | None:
        """``A::B::NAME``: the environment's value of the whole name; else, when ``A`` is bound to one name (a
        template parameter ``Traits`` bound to ``BigTraits``), of ``BigTraits::B::NAME``; else of ``NAME``
        alone when the qualifier is a namespace the environment does not know (``cfg::kTile``)."""
        parts = [first]
        while self.peek() == "::" and self.pos + 1 < len(self.toks) and self.toks[self.pos + 1].kind == IDENT:
            self.take()
            parts.append(self.take().src)
        if self.peek() in ("::", "<", "("):
            return None  # a template (numeric_limits<int>::max) or a call: not a constant we can read
        name = "::".join(parts)
        if name in self.env:
            return self._name(name)
        bound = self.env.get(parts[0])
        if bound is not None and self.depth < 8:
            words = [t.src for t in bound if t.kind not in TRIVIA]
            if len(words) == 1 or (words and all(w == "::" or w.isidentifier() for w in words)):
                return self._name("::".join(["".join(words), *parts[1:]]))
        member = "::" + parts[-1]
        if any(k.startswith(parts[0] + "::") or k.endswith(member) for k in self.env if "::" in k):
            return None  # a record the environment knows without this member, or a namesake of another's member
        return self._name(parts[-1])

    def _paren(self) -> int | None:
        if self._is_cast():
            return self._nested(self.unary)
        v = self._nested(self.ternary)
        if self.peek() != ")":
            return None
        self.take()
        return v

    def _is_cast(self) -> bool:
        """``(int)x``-style casts to a known integer type: skip the type."""
        start = self.pos
        words = []
        while self.pos < len(self.toks) and self.toks[self.pos].kind == IDENT:
            words.append(self.take().src)
        if words and self.peek() == ")" and " ".join(words) in type_sizes():
            self.take()
            return True
        self.pos = start
        return False

    def _sizeof(self) -> int | None:
        if self.peek() != "(":
            return None
        self.take()
        words = []
        while self.pos < len(self.toks) and self.peek() != ")":
            words.append(self.take().src)
        if self.peek() != ")":
            return None
        self.take()
        name = " ".join(words).removeprefix("std :: ")
        if name in self.env and self.depth < 8:
            name = " ".join(t.src for t in self.env[name] if t.kind not in TRIVIA)
        return type_sizes().get(name)

    def _name(self, name: str) -> int | None:
        if name in ("true", "false"):
            return int(name == "true")
        if name not in self.env or self.depth >= 8:
            return None
        return _evaluate(self.env[name], self.env, self.depth + 1, self.nesting)


def _apply(op: str, a: int | None, b: int | None) -> int | None:
    if a is None or b is None:
        return None
    if op in ("/", "%") and b == 0:
        return None
    if op in ("<<", ">>") and not 0 <= b < 128:
        return None
    ops = {
        "||": lambda: int(bool(a) or bool(b)), "&&": lambda: int(bool(a) and bool(b)), "|": lambda: a | b,
        "^": lambda: a ^ b, "&": lambda: a & b, "==": lambda: int(a == b), "!=": lambda: int(a != b),
        "<": lambda: int(a < b), ">": lambda: int(a > b), "<=": lambda: int(a <= b), ">=": lambda: int(a >= b),
        "<<": lambda: a << b, ">>": lambda: a >> b, "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
        "/": lambda: _quotient(a, b), "%": lambda: a - _quotient(a, b) * b,
    }
    return ops[op]()


def _quotient(a: int, b: int) -> int:
    """C's integer division (truncated toward zero), exact for any size (``int(a / b)`` divides floats: wrong
    past 2**53, so ``0xffffffffffffffff % 10`` was -1025)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


#: the tokens ``defined X`` becomes (:func:`replace_defined`): true, false, and a name whose value is unknown (an
#: expression that uses it evaluates to None, so a test on an unknown macro is unknown, not false)
ONE = Token(NUMBER, "1", 0)
ZERO = Token(NUMBER, "0", 0)
UNKNOWN = Token(IDENT, "__cuda2rocm_unknown__", 0)


def replace_defined(toks: Sequence[Token], value: Callable[[str], Token]) -> list[Token]:
    """A conditional's tokens with each ``defined X`` / ``defined(X)`` replaced by ``value(X)`` (:data:`ONE`,
    :data:`ZERO` or :data:`UNKNOWN`), ready for :func:`evaluate`; a ``defined`` with no name after it is kept."""
    out: list[Token] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        if tok.src == "defined":
            j = i + 1
            paren = j < len(toks) and toks[j].src == "("
            j += paren
            if j < len(toks) and toks[j].kind == IDENT:
                out.append(value(toks[j].src))
                i = j + 1 + (paren and j + 1 < len(toks) and toks[j + 1].src == ")")
                continue
        out.append(tok)
        i += 1
    return out


def evaluate(toks: Sequence[Token], env: Mapping[str, Sequence[Token]], depth: int = 0) -> int | None:
    """Value of the expression ``toks`` with names bound in ``env`` (name -> tokens), or ``None``."""
    return _evaluate(toks, env, depth, 0)


def _evaluate(toks: Sequence[Token], env: Mapping[str, Sequence[Token]], depth: int, nesting: int) -> int | None:
    try:
        return _Parser(toks, env, depth, nesting).parse()
    except (IndexError, KeyError, OverflowError):
        return None
