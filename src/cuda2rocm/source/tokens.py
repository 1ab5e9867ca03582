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
import itertools
import operator
import re
import string
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from cuda2rocm.lazyre import lazy

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
_ALTERNATIVES = (
    ("WS", r"[ \t\f\v]+"),
    ("NL", _NEWLINE),
    ("IDENT", rf"(?!{_PREFIX}R?[\"'])[A-Za-z_$][A-Za-z0-9_$]*"),
    ("NUMBER", r"\.?[0-9](?:[eEpP][+-]|'[0-9A-Za-z_]|[0-9A-Za-z_.])*"),
    ("COMMENT", rf"//(?:[^\r\n\\]+|\\{_NEWLINE}|\\)*|/\*(?s:.*?)\*/"),
    ("BAD_COMMENT", r"/\*(?s:.*)"),
    ("PUNCT", f"{'|'.join(re.escape(p) for p in _MULTI_PUNCTS)}|[{re.escape(_SINGLE_PUNCTS)}]"),
    ("RAW", rf"{_PREFIX}R\"(?P<delim>[^()\\\s\"]{{0,16}})\((?s:.*?)\)(?P=delim)\""),
    # unrolled bodies: a nested (a+)* backtracks exponentially on an unterminated literal
    ("STRING", rf"{_PREFIX}\"[^\"\\\r\n]*(?:\\(?s:.)[^\"\\\r\n]*)*\""),
    ("CHAR", rf"{_PREFIX}'[^'\\\r\n]*(?:\\(?s:.)[^'\\\r\n]*)*'"),
    ("BAD_STRING", rf"{_PREFIX}[\"'][^\r\n]*"),
    ("ESCNL", rf"\\{_NEWLINE}"),
    ("OTHER", r"(?s:.)"),
)
# Alternatives are ordered by how often they occur in real code (whitespace, identifiers, punctuation);
# the identifier alternative refuses string-literal prefixes (u8"", L'', R"()") so those reach STRING/CHAR.
_TOKEN_RE = lazy("|".join(f"(?P<{name}>{rx})" for name, rx in _ALTERNATIVES))
# The same alternatives without capture groups (capturing makes the scan ~4x slower) and without RAW (it
# needs a backreference): used only for texts in which no raw string literal can match (see _raw_tokens).
_PLAIN_RE = re.compile("|".join(f"(?:{rx})" for name, rx in _ALTERNATIVES if name != "RAW"))
_RAW_RE = lazy(rf"{_PREFIX}R\"([^()\\\s\"]{{0,16}})\((?s:.*?)\)\1\"")


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

# The kind of a token from its first character where that alone decides it; ``None``: look closer.
_AMBIGUOUS = None
_FIRST_KIND: dict[str, str | None] = {chr(c): OTHER for c in range(128)}
_FIRST_KIND.update({c: WS for c in " \t\f\v"})
_FIRST_KIND.update({c: NL for c in "\r\n"})
_FIRST_KIND.update({c: IDENT for c in string.ascii_letters + "_$"})
_FIRST_KIND.update({c: NUMBER for c in string.digits})
_FIRST_KIND.update({c: PUNCT for c in _SINGLE_PUNCTS})
_FIRST_KIND.update({c: _AMBIGUOUS for c in "/\"'\\"})  # comment or '/', string or bad string, ESCNL or OTHER
# Where an identifier-initial token may be a prefixed literal instead (u8"", L'x', uR"(...)": IDENT refused).
_PREFIX_QUOTE = re.compile(r"[uUL8R][\"']")
_NUMBER_DOT_AT = re.compile(r"\.[0-9]")


def _raw_tokens_reference(text: str) -> list[Token]:
    """One scan of the full pattern, ``lastgroup`` naming each alternative: the definition of the kinds."""
    tokens: list[Token] = [
        _new_token(Token, (m.lastgroup, m.group(), m.start(), False)) for m in _TOKEN_RE().finditer(text)
    ]
    if 'R"' in text:  # a raw string's inner group ``delim`` matches last
        tokens = [t._replace(kind=STRING) if t.kind in ("delim", "RAW") else t for t in tokens]
    return tokens


def _raw_tokens(text: str) -> list[Token]:
    """The tokens of :func:`_raw_tokens_reference` (directives not marked yet)."""
    if 'R"' in text and _RAW_RE().search(text):
        return _raw_tokens_reference(text)
    return _tokens_fast(text, None)


def _tokens_fast(text: str, spans: list[tuple[int, int]] | None) -> list[Token]:
    """Tokens built at C level; with ``spans`` (filled with each directive's token range), ``pp`` is set.

    The group-free pattern yields the same token texts as the full one when no raw string can match; the kind
    follows from the first character except for the few tokens that start like a comment, a literal or an
    escaped newline, a ``.5``-style number or a prefixed literal: those are matched again, at their offset,
    by the full pattern.
    """
    srcs = _PLAIN_RE.findall(text)
    offsets = list(itertools.accumulate(map(len, srcs), initial=0))
    kinds = list(map(_FIRST_KIND.get, map(operator.itemgetter(0), srcs)))
    _fix_kinds(text, kinds, offsets)
    pps: Iterable[bool] = itertools.repeat(False) if spans is None else _pp_flags(srcs, kinds, spans)
    # tuple.__new__(Token, row) called by map directly: no partial's argument vector per token
    return list(map(_new_token, itertools.repeat(Token), zip(kinds, srcs, offsets, pps, strict=False)))


def all_indexes(items: Sequence[object], value: object) -> list[int]:
    """Every index of ``value`` in ``items``, ascending (``list.index`` scans at C speed)."""
    out: list[int] = []
    i = -1
    try:
        while True:
            i = items.index(value, i + 1)
            out.append(i)
    except ValueError:
        return out


def _fix_kinds(text: str, kinds: list[str | None], offsets: list[int]) -> None:
    at = all_indexes(kinds, None)
    for m in _PREFIX_QUOTE.finditer(text):  # a prefixed literal starts 0-2 characters before the quote's prefix
        for off in range(max(0, m.start() - 2), m.start() + 1):
            k = bisect.bisect_left(offsets, off)
            if k < len(kinds) and offsets[k] == off and kinds[k] == IDENT:
                at.append(k)
    for m in _NUMBER_DOT_AT.finditer(text):
        k = bisect.bisect_left(offsets, m.start())
        if k < len(kinds) and offsets[k] == m.start():
            at.append(k)
    for k in at:
        match = _TOKEN_RE().match(text, offsets[k])
        assert match is not None  # OTHER matches any character
        kinds[k] = match.lastgroup


def _pp_flags(srcs: list[str], kinds: list[str | None], spans: list[tuple[int, int]]) -> list[bool]:
    """``pp`` of every token: True from a directive's ``#`` up to (not including) its end-of-line token."""
    pps = [False] * len(srcs)
    for i in all_indexes(srcs, "#"):
        if kinds[i] == PUNCT and not pps[i] and _first_on_line(srcs, kinds, i):
            end = _index(kinds, NL, i, len(srcs))
            pps[i:end] = [True] * (end - i)
            spans.append((i, end))
    return pps


def _index(items: list[str | None], value: str, start: int, default: int) -> int:
    try:
        return items.index(value, start)
    except ValueError:
        return default


def _first_on_line(srcs: list[str], kinds: list[str | None], i: int) -> bool:
    j = i - 1
    while j >= 0 and kinds[j] in (WS, COMMENT) and "\n" not in srcs[j]:
        j -= 1
    return j < 0 or kinds[j] == NL


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


def _merge_header(out: list[Token], first: int, end: int | None = None) -> None:
    """In the directive ``out[first:end]``, turn ``# include <a/b.h>`` operand tokens into one HEADER token."""
    merge = _header_merge(out, first, len(out) if end is None else end)
    if merge is not None:
        j, stop, header = merge
        out[j:stop] = [header]


def _header_merge(out: list[Token], first: int, end: int) -> tuple[int, int, Token] | None:
    """(start, stop, HEADER token) replacing the ``<a/b.h>`` operand of the directive ``out[first:end]``."""
    code = [k for k in range(first, end) if out[k].kind not in _SKIPPABLE]
    if len(code) < 3 or out[code[1]].kind != IDENT or out[code[1]].src not in _INCLUDE_WORDS:
        return None
    j = code[2]
    if out[j].kind != PUNCT or out[j].src not in ("<", "<<", "<=", "<<<"):
        return None
    for k in range(j, end):
        if out[k].src.endswith(">") and out[k].kind in (PUNCT, OTHER):
            src = "".join(t.src for t in out[j : k + 1])
            return j, k + 1, Token(HEADER, src, out[j].offset, True)
    return None


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into tokens; never fails, never loses a byte."""
    if 'R"' in text and _RAW_RE().search(text):
        return tokenize_reference(text)
    spans: list[tuple[int, int]] = []
    tokens = _tokens_fast(text, spans)
    merges = [m for m in (_header_merge(tokens, start, end) for start, end in spans) if m is not None]
    if not merges:
        return tokens
    out: list[Token] = []  # one pass: splicing each header into the list would move its tail every time
    done = 0
    for j, stop, header in merges:
        out.extend(tokens[done:j])
        out.append(header)
        done = stop
    out.extend(tokens[done:])
    return out


#: texts tokenized by :func:`tokenize_kept` and not yet taken back, by text (one run's planning keeps them)
_KEPT: dict[str, list[Token]] = {}


def tokenize_kept(text: str) -> list[Token]:
    """:func:`tokenize`, with the tokens kept for a later :func:`take_tokens` of the same text in this process
    (convert's planner reads a named file's includes; translating that file then needs the same tokens)."""
    found = _KEPT.get(text)
    if found is None:
        found = _KEPT[text] = tokenize(text)
    return found


def take_tokens(text: str) -> list[Token]:
    """The tokens :func:`tokenize_kept` kept for ``text`` (forgotten from then on), else :func:`tokenize`."""
    found = _KEPT.pop(text, None)
    return tokenize(text) if found is None else found


def forget_kept() -> None:
    """Drop every kept token list (the end of a run: nothing of one run outlives it)."""
    _KEPT.clear()


def tokenize_reference(text: str) -> list[Token]:
    """The definition :func:`tokenize` must equal: one token per regex match, then directives marked."""
    return _mark_directives(_raw_tokens_reference(text))


def untokenize(tokens: Iterable[Token]) -> str:
    return "".join(t.src for t in tokens)


_LINE_END = lazy(r"\r\n|\n|\r")
_LF = re.compile("\n")


class LineIndex:
    """Maps offsets to 1-based (line, column); built once per file."""

    def __init__(self, text: str) -> None:
        ends = _LINE_END().finditer(text) if "\r" in text else _LF.finditer(text)
        self._starts = [0, *(m.end() for m in ends)]

    def line_col(self, offset: int) -> tuple[int, int]:
        i = bisect.bisect_right(self._starts, offset) - 1
        return i + 1, offset - self._starts[i] + 1

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset)

    def start(self, line: int) -> int:
        """Offset of the first character of 1-based ``line``."""
        return self._starts[line - 1]

    @property
    def line_count(self) -> int:
        return len(self._starts)


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` without their ends, split where :class:`LineIndex` numbers them (``\r\n``, ``\n``,
    a lone ``\r``; not ``str.splitlines``, which also splits at form feeds, ``\x1c``-``\x1e``, ``\x85`` and
    ``\u2028``/``\u2029``); a text that ends with a line end has a last, empty line."""
    return _LINE_END().split(text)


def count_lines(text: str) -> int:
    """Lines of ``text`` as a reader counts them: each ``\r\n``, ``\n`` or lone ``\r`` ends one (the line ends of
    :class:`LineIndex`), and a last line without an end counts too; an empty text has none."""
    ends = text.count("\n") + (text.count("\r") - text.count("\r\n") if "\r" in text else 0)
    return ends + (1 if text and not text.endswith(("\n", "\r")) else 0)


_KIND = operator.attrgetter("kind")
_BAD_KINDS = frozenset({BAD_COMMENT, BAD_STRING})


def check(tokens: Sequence[Token], text: str) -> None:
    """Raise :class:`TokenizeError` at the first unterminated comment or literal."""
    if not _BAD_KINDS.intersection(map(_KIND, tokens)):  # the usual case, answered at C speed
        return
    for tok in tokens:
        if tok.kind in (BAD_COMMENT, BAD_STRING):
            line, col = LineIndex(text).line_col(tok.offset)
            what = "block comment" if tok.kind == BAD_COMMENT else "string or character literal"
            raise TokenizeError(f"unterminated {what}", line, col)


def prev_code(tokens: Sequence[Token], i: int, skip: frozenset[str] = TRIVIA) -> int:
    """Index of the code token before token ``i`` (-1 if none), with directives as streams of their own.

    From a token of ordinary code, the tokens of directives in between are skipped: in ``#endif`` followed by
    ``cudaFree(p);`` the code before ``cudaFree`` is whatever came before the directive, never ``endif``. From a
    directive's token the search stays inside that directive. ``skip``: the kinds that are not code here.
    """
    in_pp = 0 <= i < len(tokens) and tokens[i].pp
    j = i - 1
    while j >= 0:
        tok = tokens[j]
        if tok.pp != in_pp:
            if in_pp:
                return -1  # the directive starts after this token
        elif tok.kind not in skip:
            return j
        j -= 1
    return -1


def next_code(tokens: Sequence[Token], i: int, skip: frozenset[str] = TRIVIA) -> int:
    """Index of the code token after token ``i`` (``len(tokens)`` if none); directives as in :func:`prev_code`."""
    n = len(tokens)
    in_pp = 0 <= i < n and tokens[i].pp
    j = i + 1
    while j < n:
        tok = tokens[j]
        if tok.pp != in_pp:
            if in_pp:
                return n  # the directive ended
        elif tok.kind not in skip:
            return j
        j += 1
    return n


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
