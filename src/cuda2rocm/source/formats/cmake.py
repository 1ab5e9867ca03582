"""CMake listfiles, read token by token as cmake-language(7) defines them (never evaluated).

Tokens cover the text exactly (``joined(read_cmake(t).tokens) == t`` for every input). A command invocation
is a name, optional spaces, ``(``, arguments and ``)``; arguments are bracket (``[[...]]``, ``[==[...]==]``),
quoted (``"..."``, escapes and ``\\``-newline continuations inside) or unquoted (including the legacy forms
``-DX="a b"`` and ``$(MAKEVAR)``). Nested parentheses are arguments of kind ``paren``, as CMake passes them.
Comments are line comments (``# ...``) or bracket comments (``#[[...]]``).

Malformed input (a command never closed, an unterminated quoted or bracket argument, text that is not a
command) becomes a :class:`Problem`; the affected text is still covered by tokens (kind ``bad``/``other``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cuda2rocm.source.formats._base import Piece, Problem
from cuda2rocm.source.tokens import LineIndex

SPACE = "space"
NEWLINE = "newline"
COMMENT = "comment"
BRACKET_COMMENT = "bracket_comment"
NAME = "name"
LPAREN = "lparen"
RPAREN = "rparen"
UNQUOTED = "unquoted"
QUOTED = "quoted"
BRACKET = "bracket"
OTHER = "other"  # text outside any command that is not a comment
BAD = "bad"  # an unterminated quoted or bracket argument / comment (runs to the end of the text)

#: token kinds that are arguments of a command
ARGUMENT_KINDS = frozenset({UNQUOTED, QUOTED, BRACKET, LPAREN, RPAREN})

_SPACE = re.compile(r"[ \t]+")
_NEWLINE = re.compile(r"\r\n|\n|\r")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BRACKET_OPEN = re.compile(r"\[(=*)\[")
_LINE_COMMENT = re.compile(r"#[^\r\n]*")
_QUOTED = re.compile(r'"(?:[^"\\]|\\(?s:.))*"')
_ELEMENT = r'(?:\$\([A-Za-z0-9_]*\)|[^ \t\r\n()#"\\]|\\[^\r\n])'
_UNQUOTED = re.compile(rf'{_ELEMENT}(?:{_ELEMENT}|"(?:[^"\\\r\n]|\\[^\r\n])*")*')
_TO_EOL = re.compile(r"[^\r\n]*")
#: inside a command: the tokens that need no more than one match (bracket arguments and comments, and
#: unterminated quotes, are handled one by one)
_ARG_LEX = re.compile(rf"(?P<{SPACE}>[ \t]+)|(?P<{NEWLINE}>\r\n|\n|\r)|(?P<bracket_open>\[=*\[|#\[=*\[)"
                      rf"|(?P<{COMMENT}>#[^\r\n]*)|(?P<{LPAREN}>\()|(?P<{RPAREN}>\))"
                      rf"|(?P<{QUOTED}>{_QUOTED.pattern})|(?P<{UNQUOTED}>{_UNQUOTED.pattern})")
_SIMPLE = frozenset({SPACE, NEWLINE, COMMENT, LPAREN, RPAREN, QUOTED, UNQUOTED})
_ESCAPE = re.compile(r"\\(?:\r\n|\n|(.))", re.DOTALL)
_ENCODED = {"t": "\t", "n": "\n", "r": "\r"}


@dataclass(frozen=True)
class Argument:
    """One argument of a command: ``kind`` is ``unquoted``, ``quoted``, ``bracket`` or ``paren``."""

    kind: str
    src: str
    offset: int

    @property
    def end(self) -> int:
        return self.offset + len(self.src)

    @property
    def value(self) -> str:
        """The argument's content: quotes and brackets removed, escapes decoded (``\\;`` is kept, as CMake
        keeps it for list splitting); variable references are not expanded."""
        if self.kind == "bracket":
            inner = self.src[self.src.index("[", 1) + 1 : len(self.src) - self.src.index("[", 1) - 1]
            return inner[2:] if inner.startswith("\r\n") else inner[1:] if inner[:1] == "\n" else inner
        if self.kind == "quoted":
            return _decode(self.src[1:-1])
        return _decode(self.src) if "\\" in self.src else self.src


def _decode(s: str) -> str:
    def one(m: re.Match[str]) -> str:
        c = m.group(1)
        if c is None:
            return ""  # backslash-newline continues a quoted argument
        if c == ";":
            return "\\;"
        return _ENCODED.get(c, c)

    return _ESCAPE.sub(one, s)


@dataclass(frozen=True)
class Command:
    """A command invocation: ``name`` at ``offset``, ``(`` at ``open``, ``)`` at ``close`` (-1: never closed)."""

    name: str
    offset: int
    open: int
    close: int
    arguments: tuple[Argument, ...]
    line: int
    col: int

    @property
    def end(self) -> int:
        """End of the invocation (after ``)``; the end of the text's last argument when never closed)."""
        if self.close >= 0:
            return self.close + 1
        return self.arguments[-1].end if self.arguments else self.open + 1

    @property
    def lower(self) -> str:
        """The command name in lower case (CMake command names are case-insensitive)."""
        return self.name.lower()

    def values(self) -> list[str]:
        """The argument values, nested parentheses left out."""
        return [a.value for a in self.arguments if a.kind != "paren"]


@dataclass(frozen=True)
class CMakeFile:
    text: str
    tokens: tuple[Piece, ...]
    commands: tuple[Command, ...]
    problems: tuple[Problem, ...]

    @property
    def comments(self) -> tuple[Piece, ...]:
        return tuple(t for t in self.tokens if t.kind in (COMMENT, BRACKET_COMMENT))


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.tokens: list[Piece] = []
        self.commands: list[Command] = []
        self.problems: list[Problem] = []
        self.lines = LineIndex(text)

    def emit(self, kind: str, end: int) -> Piece:
        tok = Piece(kind, self.text[self.pos : end], self.pos)
        self.tokens.append(tok)
        self.pos = end
        return tok

    def problem(self, offset: int, message: str) -> None:
        self.problems.append(Problem(self.lines.line(offset), message, offset))

    def trivia(self) -> bool:
        """Consume one space, newline or comment; False when none is here."""
        text, pos = self.text, self.pos
        for rx, kind in ((_SPACE, SPACE), (_NEWLINE, NEWLINE)):
            m = rx.match(text, pos)
            if m:
                self.emit(kind, m.end())
                return True
        if text.startswith("#", pos):
            b = _BRACKET_OPEN.match(text, pos + 1)
            if b:
                self.bracket(pos, b, BRACKET_COMMENT, "bracket comment")
            else:
                self.emit(COMMENT, _LINE_COMMENT.match(text, pos).end())  # type: ignore[union-attr]
            return True
        return False

    def bracket(self, start: int, opener: re.Match[str], kind: str, what: str) -> None:
        close = "]" + opener.group(1) + "]"
        end = self.text.find(close, opener.end())
        if end < 0:
            self.problem(start, f"unterminated {what} (no closing {close})")
            self.emit(BAD, len(self.text))
        else:
            self.emit(kind, end + len(close))

    def read(self) -> None:
        text = self.text
        while self.pos < len(text):
            if self.trivia():
                continue
            m = _NAME.match(text, self.pos)
            if m:
                after = _SPACE.match(text, m.end())
                paren = after.end() if after else m.end()
                if text.startswith("(", paren):
                    self.command(m.group(0), paren)
                    continue
                self.problem(self.pos, f"{m.group(0)!r} is not followed by '(' (a command needs parentheses)")
            else:
                self.problem(self.pos, f"unexpected {text[self.pos]!r} outside a command")
            self.emit(OTHER, _TO_EOL.match(text, self.pos).end() or self.pos + 1)  # type: ignore[union-attr]

    def command(self, name: str, paren: int) -> None:
        text = self.text
        start = self.pos
        self.emit(NAME, start + len(name))
        if self.pos < paren:
            self.emit(SPACE, paren)
        self.emit(LPAREN, paren + 1)
        args: list[Argument] = []
        depth, close = 1, -1
        lex, tokens = _ARG_LEX.match, self.tokens
        while self.pos < len(text):
            pos = self.pos
            m = lex(text, pos)
            kind = m.lastgroup if m is not None else None
            if m is not None and kind in _SIMPLE:
                src = m.group(0)
                tokens.append(Piece(kind, src, pos))
                self.pos = m.end()
                if kind in (UNQUOTED, QUOTED):
                    args.append(Argument(kind, src, pos))
                elif kind == LPAREN:
                    depth += 1
                    args.append(Argument("paren", "(", pos))
                elif kind == RPAREN:
                    depth -= 1
                    if depth == 0:
                        close = pos
                        break
                    args.append(Argument("paren", ")", pos))
                continue
            if self.trivia():  # bracket comments
                continue
            c = text[pos]
            if c == '"':
                self.problem(pos, "unterminated quoted argument")
                args.append(Argument("quoted", text[pos:] + '"', pos))
                self.emit(BAD, len(text))
            elif (br := _BRACKET_OPEN.match(text, pos)) is not None:
                self.bracket(pos, br, BRACKET, "bracket argument")
                if self.tokens[-1].kind == BRACKET:
                    args.append(Argument("bracket", self.tokens[-1].src, pos))
            else:  # a lone backslash before a newline or at the end
                self.problem(pos, "a backslash must escape a character")
                args.append(Argument("unquoted", text[pos : pos + 1], pos))
                self.emit(BAD, pos + 1)
        line, col = self.lines.line_col(start)
        if close < 0:
            self.problem(start, f"CMake command {name}( opened at line {line} is never closed")
        self.commands.append(Command(name, start, paren, close, tuple(args), line, col))


def read_cmake(text: str) -> CMakeFile:
    """Read a CMake listfile (``CMakeLists.txt``, ``*.cmake``); never raises."""
    reader = _Reader(text)
    reader.read()
    return CMakeFile(text, tuple(reader.tokens), tuple(reader.commands), tuple(reader.problems))
