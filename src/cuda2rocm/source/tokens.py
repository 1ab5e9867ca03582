"""A lossless tokenizer for C, C++, CUDA and HIP source.

``untokenize(tokenize(text)) == text`` for every input, including malformed input: unknown bytes become
``OTHER`` tokens. Comments, string/char literals (raw strings included), line continuations, CRLF and
preprocessor lines are all tokens, so rewrites can be token edits and never touch comments or strings.

Preprocessor directives are marked: every token of a directive (up to the unescaped end of line) has
``pp=True``, and the header operand of ``#include <...>`` is merged into one ``HEADER`` token.

Unterminated block comments, strings and char literals are tokens of kind ``BAD_COMMENT``/``BAD_STRING``
(still lossless); :func:`check` turns the first of them into a :class:`TokenizeError` with a line number.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

IDENT = "IDENT"
NUMBER = "NUMBER"
STRING = "STRING"
CHAR = "CHAR"
PUNCT = "PUNCT"
COMMENT = "COMMENT"
WS = "WS"
NL = "NL"
ESCNL = "ESCNL"
HEADER = "HEADER"
OTHER = "OTHER"
BAD_COMMENT = "BAD_COMMENT"
BAD_STRING = "BAD_STRING"

#: Tokens that carry no code: skip them when looking for the previous/next meaningful token.
TRIVIA = frozenset({WS, NL, ESCNL, COMMENT})
#: Tokens whose text is code that rewrites may touch.
CODE_KINDS = frozenset({IDENT, NUMBER, PUNCT})

_PUNCTS = sorted(
    """<<<= >>>= ... <<= >>= ->* <=> <<< >>> :: -> ++ -- << >> <= >= == != && || += -= *= /= %= &= |= ^= ## .*
    { } [ ] ( ) ; : ? . + - * / % ^ & | ~ ! = < > , #""".split(),
    key=len,
    reverse=True,
)
# ``<<<`` opens a CUDA launch (never valid C++ otherwise); ``>>>`` is not a token because ``A<B<C<int>>>``
# is valid C++: the launch closer is ``>>`` followed directly by ``>`` (see structure.find_launches).
_PUNCTS = [p for p in _PUNCTS if p not in (">>>", "<<<=", ">>>=")]

_NEWLINE = r"(?:\r\n|\n|\r)"
_PREFIX = r"(?:u8|[uUL])?"
_MULTI_PUNCTS = [p for p in _PUNCTS if len(p) > 1]
_SINGLE_PUNCTS = "".join(p for p in _PUNCTS if len(p) == 1)
# Alternatives are ordered by how often they occur in real code (whitespace, identifiers, punctuation);
# the identifier alternative refuses string-literal prefixes (u8"", L'', R"()") so those reach STRING/CHAR.
# Literal bodies are written "unrolled" (plain run, then escape + plain run, repeated): a nested ``(a+)*``
# would backtrack exponentially on an unterminated literal before falling through to BAD_STRING.
_TOKEN_RE = re.compile(
    rf"""
    (?P<WS>[ \t\f\v]+)
  | (?P<NL>{_NEWLINE})
  | (?P<IDENT>(?!{_PREFIX}R?["'])[A-Za-z_$][A-Za-z0-9_$]*)
  | (?P<NUMBER>\.?[0-9](?:[eEpP][+-]|'[0-9A-Za-z_]|[0-9A-Za-z_.])*)
  | (?P<COMMENT>//(?:[^\r\n\\]+|\\{_NEWLINE}|\\)*|/\*(?s:.*?)\*/)
  | (?P<BAD_COMMENT>/\*(?s:.*))
  | (?P<PUNCT>{"|".join(re.escape(p) for p in _MULTI_PUNCTS)}|[{re.escape(_SINGLE_PUNCTS)}])
  | (?P<RAW>{_PREFIX}R"(?P<delim>[^()\\\s"]{{0,16}})\((?s:.*?)\)(?P=delim)")
  | (?P<STRING>{_PREFIX}"[^"\\\r\n]*(?:\\(?s:.)[^"\\\r\n]*)*")
  | (?P<CHAR>{_PREFIX}'[^'\\\r\n]*(?:\\(?s:.)[^'\\\r\n]*)*')
  | (?P<BAD_STRING>{_PREFIX}["'][^\r\n]*)
  | (?P<ESCNL>\\{_NEWLINE})
  | (?P<OTHER>(?s:.))
    """,
    re.VERBOSE,
)


class Token(NamedTuple):
    kind: str
    src: str
    offset: int
    pp: bool = False

    @property
    def end(self) -> int:
        return self.offset + len(self.src)

    def is_(self, kind: str, src: str | None = None) -> bool:
        return self.kind == kind and (src is None or self.src == src)


class TokenizeError(ValueError):
    def __init__(self, message: str, line: int, col: int) -> None:
        super().__init__(f"{line}:{col}: {message}")
        self.message = message
        self.line = line
        self.col = col


_new_token = tuple.__new__  # builds Token without the namedtuple's Python-level __new__ (hot path)


def _raw_tokens(text: str) -> list[Token]:
    # One C-level scan; ``lastgroup`` names the alternative. A raw string's inner group ``delim`` matches
    # last, so those are fixed up afterwards (only when the file can contain one).
    tokens: list[Token] = [
        _new_token(Token, (m.lastgroup, m.group(), m.start(), False)) for m in _TOKEN_RE.finditer(text)
    ]
    if 'R"' in text:
        tokens = [t._replace(kind=STRING) if t.kind in ("delim", "RAW") else t for t in tokens]
    return tokens


_INCLUDE_WORDS = frozenset({"include", "include_next", "import"})
_SKIPPABLE = frozenset({WS, ESCNL, COMMENT})


def _directive_starts(tokens: list[Token]) -> list[int]:
    """Indexes of ``#`` tokens that begin a directive: first code token on their line."""
    starts = []
    for i in [i for i, t in enumerate(tokens) if t.src == "#" and t.kind == PUNCT]:
        j = i - 1
        while j >= 0 and tokens[j].kind in (WS, COMMENT) and "\n" not in tokens[j].src:
            j -= 1
        if j < 0 or tokens[j].kind == NL:
            starts.append(i)
    return starts


def _mark_directives(tokens: list[Token]) -> list[Token]:
    """Set ``pp`` on directive tokens and merge ``<...>`` include operands into HEADER tokens.

    Only the directives' own tokens are visited, so files without directives cost one list scan.
    """
    starts = _directive_starts(tokens)
    if not starts:
        return tokens
    out: list[Token] = []
    n = len(tokens)
    done = 0
    for start in starts:
        if start < done:
            continue
        out.extend(tokens[done:start])
        i = start
        while i < n and tokens[i].kind != NL:
            out.append(tokens[i]._replace(pp=True))
            i += 1
        done = i
        _merge_header(out, len(out) - (i - start))
    out.extend(tokens[done:])
    return out


def _merge_header(out: list[Token], first: int) -> None:
    """In the directive ``out[first:]``, turn ``# include <a/b.h>`` operand tokens into one HEADER token."""
    code = [k for k in range(first, len(out)) if out[k].kind not in _SKIPPABLE]
    if len(code) < 3 or out[code[1]].kind != IDENT or out[code[1]].src not in _INCLUDE_WORDS:
        return
    j = code[2]
    if out[j].kind != PUNCT or out[j].src not in ("<", "<<", "<=", "<<<"):
        return
    for k in range(j, len(out)):
        if out[k].src.endswith(">") and out[k].kind in (PUNCT, OTHER):
            src = "".join(t.src for t in out[j : k + 1])
            out[j : k + 1] = [Token(HEADER, src, out[j].offset, True)]
            return


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into tokens; never fails, never loses a byte."""
    return _mark_directives(_raw_tokens(text))


def untokenize(tokens: Iterable[Token]) -> str:
    return "".join(t.src for t in tokens)


class LineIndex:
    """Maps offsets to 1-based (line, column); built once per file."""

    def __init__(self, text: str) -> None:
        starts = [0]
        for m in re.finditer(r"\r\n|\n|\r", text):
            starts.append(m.end())
        self._starts = starts

    def line_col(self, offset: int) -> tuple[int, int]:
        i = bisect.bisect_right(self._starts, offset) - 1
        return i + 1, offset - self._starts[i] + 1

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset)

    @property
    def line_count(self) -> int:
        return len(self._starts)


def check(tokens: Sequence[Token], text: str) -> None:
    """Raise :class:`TokenizeError` at the first unterminated comment or literal."""
    for tok in tokens:
        if tok.kind in (BAD_COMMENT, BAD_STRING):
            line, col = LineIndex(text).line_col(tok.offset)
            what = "block comment" if tok.kind == BAD_COMMENT else "string or character literal"
            raise TokenizeError(f"unterminated {what}", line, col)


def code_tokens(tokens: Sequence[Token]) -> list[int]:
    """Indexes of the non-trivia tokens, in order (the view most analyses want)."""
    return [i for i, t in enumerate(tokens) if t.kind not in TRIVIA]


def main(argv: Sequence[str] | None = None) -> int:
    """Debug aid: print ``line:col KIND 'src'`` for every token of a file."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    with open(args[0], encoding="utf-8", newline="") as f:
        text = f.read()
    index = LineIndex(text)
    for tok in tokenize(text):
        line, col = index.line_col(tok.offset)
        print(f"{line}:{col} {tok.kind}{'/pp' if tok.pp else ''} {tok.src!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
