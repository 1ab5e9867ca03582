"""Shell command text (POSIX sh / bash), read as logical lines of words with their offsets in the original text.

A logical line ends at an unquoted newline; backslash-newline continuations are joined (they may also fall
inside a word), and quoted strings or ``$(...)`` substitutions that span lines stay one word. Words keep their
quoting (``src``); :attr:`Word.value` is the word with quotes and escapes removed. Operators (``;``, ``&&``,
``||``, ``|``, ``&``, ``(``, ``)``, redirections) are words of kind ``op``. ``#`` at the start of a word begins
a comment; here-documents (``<<EOF``, ``<<-EOF``, ``<<'EOF'``) are skipped as one ``heredoc`` piece attached to
the line that opened them. Nothing is evaluated. ``tokens`` cover the text exactly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cuda2rocm.source.formats._base import Piece, Problem
from cuda2rocm.source.tokens import LineIndex

WORD = "word"
OP = "op"
SPACE = "space"
CONTINUATION = "continuation"
NEWLINE = "newline"
COMMENT = "comment"
HEREDOC = "heredoc"

_OPERATORS = sorted(";;& ;; ;& && || |& <<< <<- << >> <& >& &>> &> <> >| ; & | ( ) < >".split(), key=len,
                    reverse=True)
#: operators that separate commands (a new command starts after them)
SEPARATORS = frozenset({";", ";;", ";&", ";;&", "&&", "||", "|", "|&", "&", "(", ")"})
_PLAIN = re.compile(r"[^ \t\r\n;&|()<>'\"\\$`]+")
#: what can start at a word boundary other than a word (group names are the piece kinds)
_LEX = re.compile(rf"(?P<{SPACE}>[ \t]+)|(?P<{CONTINUATION}>\\\r?\n)|(?P<{NEWLINE}>\r\n|\n|\r)|(?P<{COMMENT}>#[^\r\n]*)"
                  rf"|(?P<{OP}>{'|'.join(re.escape(o) for o in _OPERATORS)})")


@dataclass(frozen=True)
class Word:
    kind: str  # "word" or "op"
    src: str
    offset: int

    @property
    def end(self) -> int:
        return self.offset + len(self.src)

    @property
    def value(self) -> str:
        """The word as the shell passes it: quotes removed, escapes and continuations dropped (no expansion)."""
        return unquote(self.src) if self.kind == WORD else self.src


@dataclass(frozen=True)
class LogicalLine:
    offset: int  # first character of the first word or comment
    end: int  # end of the last word or comment
    line: int
    last_line: int
    words: tuple[Word, ...]
    comment: Piece | None
    heredocs: tuple[Piece, ...] = ()

    def commands(self) -> list[tuple[Word, ...]]:
        """The words split into simple commands at the separators (``;``, ``&&``, ``||``, ``|``, ...)."""
        out: list[tuple[Word, ...]] = []
        cur: list[Word] = []
        for w in self.words:
            if w.kind == OP and w.src in SEPARATORS:
                if cur:
                    out.append(tuple(cur))
                cur = []
            else:
                cur.append(w)
        if cur:
            out.append(tuple(cur))
        return out


@dataclass(frozen=True)
class ShellScript:
    text: str
    tokens: tuple[Piece, ...]
    lines: tuple[LogicalLine, ...]
    problems: tuple[Problem, ...]


def unquote(src: str) -> str:
    out: list[str] = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if c == "\\":
            if src.startswith("\r\n", i + 1):
                i += 3
            elif i + 1 < n and src[i + 1] == "\n":
                i += 2
            else:
                out.append(src[i + 1 : i + 2])
                i += 2
        elif c == "'":
            j = src.find("'", i + 1)
            j = n if j < 0 else j
            out.append(src[i + 1 : j])
            i = j + 1
        elif c == "$" and src.startswith("$'", i):
            j = _ansi_end(src, i + 2)
            if j < 0:
                out.append(src[i + 2 :])
                break
            out.append(src[i + 2 : j - 1])
            i = j
        elif c in "$`" and (j := _substitution_end(src, i)) > i:
            out.append(src[i:j])  # substitutions are kept as written (their quotes are their own)
            i = j
        elif c == '"' or (c == "$" and src.startswith('$"', i)):
            i += 1 if c == '"' else 2
            while i < n and src[i] != '"':
                if src[i] in "$`" and (j := _substitution_end(src, i)) > i:
                    out.append(src[i:j])
                    i = j
                elif src[i] == "\\" and i + 1 < n and src[i + 1] in '$`"\\\n':
                    if src[i + 1] != "\n":
                        out.append(src[i + 1])
                    i += 2
                else:
                    out.append(src[i])
                    i += 1
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _substitution_end(src: str, i: int) -> int:
    """End of the ``$(...)``, ``${...}`` or backquoted substitution at ``i`` (``i`` itself when there is none
    or it is unterminated)."""
    if src.startswith(("$(", "${"), i):
        j = _subst_end(src, i + 2, src[i + 1])
    elif src.startswith("`", i):
        j = _backtick_end(src, i + 1)
    else:
        return i
    return i if j < 0 else j


def _ansi_end(text: str, i: int) -> int:
    """End (after the closing quote) of a ``$'...'`` string whose body starts at ``i``; -1 if unterminated."""
    n = len(text)
    while i < n:
        if text[i] == "\\":
            i += 2
        elif text[i] == "'":
            return i + 1
        else:
            i += 1
    return -1


def _double_end(text: str, i: int) -> int:
    """End of a double-quoted string whose body starts at ``i`` (substitutions inside skipped); -1 if open."""
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
        elif c == '"':
            return i + 1
        elif c == "$" and text.startswith(("$(", "${"), i):
            i = _subst_end(text, i + 2, text[i + 1])
            if i < 0:
                return -1
        elif c == "`":
            i = _backtick_end(text, i + 1)
            if i < 0:
                return -1
        else:
            i += 1
    return -1


def _backtick_end(text: str, i: int) -> int:
    n = len(text)
    while i < n:
        if text[i] == "\\":
            i += 2
        elif text[i] == "`":
            return i + 1
        else:
            i += 1
    return -1


def _subst_end(text: str, i: int, opener: str) -> int:
    """End (after the closer) of ``$(...)``, ``$((...))`` or ``${...}`` whose body starts at ``i``."""
    closer = ")" if opener == "(" else "}"
    depth, n = 1, len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "'" and closer == ")":
            j = text.find("'", i + 1)
            if j < 0:
                return -1
            i = j + 1
            continue
        if c == '"':
            i = _double_end(text, i + 1)
            if i < 0:
                return -1
            continue
        if c == "`":
            i = _backtick_end(text, i + 1)
            if i < 0:
                return -1
            continue
        if c == "$" and text.startswith(("$(", "${"), i):
            i = _subst_end(text, i + 2, text[i + 1])
            if i < 0:
                return -1
            continue
        if c == opener:
            depth += 1
        elif c == closer:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[Piece] = []
        self.lines: list[LogicalLine] = []
        self.problems: list[Problem] = []
        self.index = LineIndex(text)

    def problem(self, offset: int, message: str) -> None:
        self.problems.append(Problem(self.index.line(offset), message, offset))

    def word_end(self, i: int) -> int:
        """End of the word starting at ``i`` (an unterminated quote runs to the end of the text)."""
        text, n = self.text, len(self.text)
        while i < n:
            m = _PLAIN.match(text, i)
            if m:
                i = m.end()
                continue
            c = text[i]
            if c == "\\":
                i = min(i + (3 if text.startswith("\r\n", i + 1) else 2), n)
                continue
            if c == "'":
                j = text.find("'", i + 1)
                end = j + 1 if j >= 0 else -1
            elif c == '"':
                end = _double_end(text, i + 1)
            elif c == "$" and text.startswith("$'", i):
                end = _ansi_end(text, i + 2)
            elif c == "$" and text.startswith('$"', i):
                end = _double_end(text, i + 2)
            elif c == "$" and text.startswith(("$(", "${"), i):
                end = _subst_end(text, i + 2, text[i + 1])
            elif c == "$":
                i += 1
                continue
            elif c == "`":
                end = _backtick_end(text, i + 1)
            else:
                break  # a space, newline or operator character
            if end < 0:
                what = {"'": "single quote", '"': "double quote", "`": "backquote"}.get(c, f"{text[i:i + 2]!r}")
                self.problem(i, f"unterminated {what}")
                return n
            i = end
        return i

    def read(self) -> None:
        text, n = self.text, len(self.text)
        pos = 0
        words: list[Word] = []
        comment: Piece | None = None
        pending: list[tuple[str, bool]] = []  # here-document delimiters of the current line
        expect_delim: bool | None = None  # after << / <<-: the next word is a delimiter (value: strip tabs)
        heredocs: list[Piece] = []

        def finish() -> None:
            nonlocal words, comment, heredocs
            if words or comment:
                first = words[0].offset if words else comment.offset  # type: ignore[union-attr]
                last = comment.end if comment else words[-1].end
                last_line = self.index.line(max(first, last - 1))
                self.lines.append(LogicalLine(first, last, self.index.line(first), last_line, tuple(words), comment,
                                              tuple(heredocs)))
            words, comment, heredocs = [], None, []

        lex = _LEX.match
        tokens = self.tokens
        while pos < n:
            m = lex(text, pos)
            kind = m.lastgroup if m else None
            if kind is not None and m is not None:
                src = m.group(0)
                if kind == NEWLINE:
                    tokens.append(Piece(NEWLINE, src, pos))
                    pos = m.end()
                    for delim, strip in pending:
                        pos = self.heredoc(pos, delim, strip, heredocs)
                    pending = []
                    finish()
                    continue
                piece = Piece(kind, src, pos)
                tokens.append(piece)
                pos = m.end()
                if kind == COMMENT:
                    comment = piece
                elif kind == OP:
                    words.append(Word(OP, src, piece.offset))
                    if src in ("<<", "<<-"):
                        expect_delim = src == "<<-"
                continue
            end = self.word_end(pos)
            if end == pos:  # cannot happen: every other character starts a word; guard against a stall
                end = pos + 1
            word = Word(WORD, text[pos:end], pos)
            words.append(word)
            self.tokens.append(Piece(WORD, word.src, pos))
            pos = end
            if expect_delim is not None:
                pending.append((word.value, expect_delim))
                expect_delim = None
        finish()

    def heredoc(self, pos: int, delim: str, strip: bool, out: list[Piece]) -> int:
        """Skip a here-document body starting at ``pos``; returns the offset after its terminator line."""
        text, n = self.text, len(self.text)
        start = pos
        while pos < n:
            nl = text.find("\n", pos)
            stop = n if nl < 0 else nl
            line = text[pos:stop].rstrip("\r")
            if (line.lstrip("\t") if strip else line) == delim:
                piece = Piece(HEREDOC, text[start:stop], start)
                out.append(piece)
                self.tokens.append(piece)
                return stop
            pos = stop + 1
        self.problem(start, f"here-document delimited by end of text (wanted {delim!r})")
        if start < n:
            piece = Piece(HEREDOC, text[start:], start)
            out.append(piece)
            self.tokens.append(piece)
        return n


def read_shell(text: str) -> ShellScript:
    """Read shell text (a script, a Dockerfile ``RUN``, a CI ``run:`` block, a recipe); never raises."""
    reader = _Reader(text)
    reader.read()
    return ShellScript(text, tuple(reader.tokens), tuple(reader.lines), tuple(reader.problems))
