"""Bazel rc files (``.bazelrc``, ``*.bazelrc``), read as logical lines of words with their offsets.

Each logical line is ``command[:config] option...`` (``build:cuda --config=x``, ``test --test_env=K=V``) or an
``import`` / ``try-import`` of another rc file. A backslash at the end of a physical line continues the logical
line on the next one; words are split at blanks with shell-like quoting (``'...'``, ``"..."`` with ``\\``
escapes, ``\\x`` outside quotes), as Bazel's rc parser tokenizes them. ``#`` at the start of a word begins a
comment that runs to the end of the physical line. Words keep their quoting (``src``); :attr:`RcWord.value` is
the word Bazel sees. Nothing is evaluated; ``tokens`` (word, space, continuation, newline, comment pieces) cover
the text exactly, and an unterminated quote is a :class:`Problem` naming its line (the word runs to the end of
the logical line).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from cuda2rocm.source.formats._base import Piece, Problem
from cuda2rocm.source.tokens import LineIndex

WORD = "word"
SPACE = "space"
CONTINUATION = "continuation"
NEWLINE = "newline"
COMMENT = "comment"
IMPORTS = frozenset({"import", "try-import"})


@dataclass(frozen=True)
class RcWord:
    src: str  # as written, quotes and continuations included
    offset: int
    value: str  # as Bazel reads it: quotes and escapes removed

    @property
    def end(self) -> int:
        return self.offset + len(self.src)


@dataclass(frozen=True)
class RcLine:
    """A logical line with words: ``kind`` is ``options`` (``build:cuda --x``) or ``import``."""

    kind: str
    offset: int  # the first word
    end: int  # the end of the last word
    line: int
    last_line: int
    words: tuple[RcWord, ...]
    comment: Piece | None = None

    @property
    def command(self) -> str:
        """``build`` of ``build:cuda``."""
        return self.words[0].value.split(":", 1)[0]

    @property
    def config(self) -> str:
        """``cuda`` of ``build:cuda``; ``""`` for a line of the command's defaults."""
        head = self.words[0].value
        return head.split(":", 1)[1] if ":" in head else ""

    @property
    def options(self) -> tuple[RcWord, ...]:
        return self.words[1:]


@dataclass(frozen=True)
class BazelrcFile:
    text: str
    tokens: tuple[Piece, ...]
    lines: tuple[RcLine, ...]
    comments: tuple[Piece, ...]
    problems: tuple[Problem, ...]

    def configs(self, name: str) -> list[RcLine]:
        """The option lines of config ``name`` (``build:name``, ``test:name``, ...)."""
        return [ln for ln in self.lines if ln.kind == "options" and ln.config == name]


def read_bazelrc(text: str) -> BazelrcFile:
    return _Reader(text).read()


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = LineIndex(text)
        self.tokens: list[Piece] = []
        self.out: list[RcLine] = []
        self.comments: list[Piece] = []
        self.problems: list[Problem] = []
        self.words: list[RcWord] = []
        self.comment: Piece | None = None

    def read(self) -> BazelrcFile:
        text, n, pos = self.text, len(self.text), 0
        while pos < n:
            c = text[pos]
            if c in " \t\f\v":
                end = pos
                while end < n and text[end] in " \t\f\v":
                    end += 1
                self.tokens.append(Piece(SPACE, text[pos:end], pos))
                pos = end
            elif c == "\\" and text.startswith(("\n", "\r"), pos + 1):
                end = pos + (3 if text.startswith("\r\n", pos + 1) else 2)
                self.tokens.append(Piece(CONTINUATION, text[pos:end], pos))
                pos = end
            elif c in "\r\n":
                end = pos + (2 if text.startswith("\r\n", pos) else 1)
                self.tokens.append(Piece(NEWLINE, text[pos:end], pos))
                self._finish()
                pos = end
            elif c == "#":
                end = pos
                while end < n and text[end] not in "\r\n":
                    end += 1
                piece = Piece(COMMENT, text[pos:end], pos)
                self.tokens.append(piece)
                self.comments.append(piece)
                if self.words:
                    self.comment = piece
                pos = end
            else:
                pos = self._word(pos)
        self._finish()
        return BazelrcFile(text, tuple(self.tokens), tuple(self.out), tuple(self.comments), tuple(self.problems))

    def _word(self, start: int) -> int:
        """Read one word from ``start``: quotes, escapes and continuations inside it stay part of it."""
        text, n, pos = self.text, len(self.text), start
        value: list[str] = []
        while pos < n:
            c = text[pos]
            if c in " \t\f\v\r\n" or (c == "#" and pos == start):
                break
            if c == "\\":
                if text.startswith(("\n", "\r"), pos + 1):  # a continuation inside a word joins it
                    pos += 3 if text.startswith("\r\n", pos + 1) else 2
                elif pos + 1 < n:
                    value.append(text[pos + 1])
                    pos += 2
                else:
                    pos += 1
                continue
            if c in "'\"":
                pos = self._quoted(pos, c, value)
                continue
            value.append(c)
            pos += 1
        self.tokens.append(Piece(WORD, text[start:pos], start))
        self.words.append(RcWord(text[start:pos], start, "".join(value)))
        return pos

    def _quoted(self, start: int, quote: str, value: list[str]) -> int:
        """From the opening quote at ``start`` to after its closing quote (or the end of the logical line)."""
        text, n, pos = self.text, len(self.text), start + 1
        while pos < n:
            c = text[pos]
            if c == quote:
                return pos + 1
            if c == "\\" and text.startswith(("\n", "\r"), pos + 1):
                pos += 3 if text.startswith("\r\n", pos + 1) else 2
                continue
            if c in "\r\n":
                break
            if c == "\\" and quote == '"' and pos + 1 < n and text[pos + 1] in '"\\$`':
                value.append(text[pos + 1])
                pos += 2
                continue
            value.append(c)
            pos += 1
        self.problems.append(Problem(self.lines.line(start), f"unterminated {quote} quote", start))
        return pos

    def _finish(self) -> None:
        if self.words:
            first, last = self.words[0], self.words[-1]
            kind = "import" if first.value in IMPORTS else "options"
            end = last.end
            self.out.append(RcLine(kind, first.offset, end, self.lines.line(first.offset),
                                   self.lines.line(max(end - 1, first.offset)), tuple(self.words), self.comment))
        self.words = []
        self.comment = None


# ---- options and their values ------------------------------------------------------------------------------------

#: options whose value sets an environment variable (``--action_env=CUDA_HOME=/usr/local/cuda``)
ENV_OPTIONS = ("--action_env", "--repo_env", "--test_env", "--host_action_env")


def flag_aliases(lines: tuple[RcLine, ...]) -> dict[str, str]:
    """``--flag_alias=cuda_archs=@rules_cuda//cuda:archs`` -> {"--cuda_archs": "--@rules_cuda//cuda:archs"}."""
    out: dict[str, str] = {}
    for line in lines:
        for opt in option_values(line):
            if opt[0] == "--flag_alias" and "=" in opt[1]:
                name, target = opt[1].split("=", 1)
                out[f"--{name}"] = target if target.startswith("--") else f"--{target}"
    return out


def option_values(line: RcLine) -> Iterator[tuple[str, str, RcWord, RcWord]]:
    """(name, value, first word, last word) of each option: ``--x=v`` or ``--x v`` (for options taking a value)."""
    words = line.options
    i = 0
    while i < len(words):
        w = words[i]
        name, eq, value = w.value.partition("=")
        if not w.value.startswith("-"):
            i += 1
            continue
        if not eq and name in (*ENV_OPTIONS, "--define", "--flag_alias", "--copt", "--config") and i + 1 < len(words) \
                and not words[i + 1].value.startswith("-"):
            yield name, words[i + 1].value, w, words[i + 1]
            i += 2
            continue
        yield name, value, w, w
        i += 1
