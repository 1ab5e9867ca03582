"""Dockerfiles, read instruction by instruction with spans (the Dockerfile reference's rules, never built).

- Parser directives (``# syntax=...``, ``# escape=...``, ``# check=...``) are read from the top of the file;
  ``escape`` sets the line-continuation character (``\\`` or `````).
- An instruction runs over continued lines (ending in the escape character, trailing blanks allowed); comment
  lines and empty lines inside a continuation are skipped, as Docker does.
- Here-documents (``RUN <<EOF``, ``<<-EOF``, ``<<"EOF"``, several per instruction) are part of the instruction
  that opens them: :attr:`Instruction.heredocs` holds each body.
- :attr:`Instruction.segments` are the argument text of each physical line (continuation character removed),
  :meth:`Instruction.words` the arguments split on whitespace with quotes respected, each with its offset.

dockerfile-parse (a test dependency) gives the same line ranges for files without here-documents or skipped
lines inside continuations, which the tests check; it knows neither, so this reader is written by hand.
Problems: unknown instructions, instructions without arguments (an empty ``FROM``), a JSON (exec) form that is
not a JSON array of strings, an unterminated here-document.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from cuda2rocm.source.formats._base import Piece, Problem, physical_lines

INSTRUCTIONS = frozenset({"FROM", "RUN", "CMD", "LABEL", "MAINTAINER", "EXPOSE", "ENV", "ADD", "COPY", "ENTRYPOINT",
                          "VOLUME", "USER", "WORKDIR", "ARG", "ONBUILD", "STOPSIGNAL", "HEALTHCHECK", "SHELL"})
#: instructions whose arguments may be a JSON array (the exec form)
JSON_FORMS = frozenset({"RUN", "CMD", "ENTRYPOINT", "SHELL", "COPY", "ADD", "VOLUME", "HEALTHCHECK", "ONBUILD"})
_HEREDOC_FORMS = frozenset({"RUN", "COPY", "ADD"})
_DIRECTIVE = re.compile(r"#\s*([A-Za-z][A-Za-z0-9_-]*)\s*=\s*(.*?)\s*$")
_KEYWORD = re.compile(r"[ \t]*([^ \t]+)")
_HEREDOC = re.compile(r"<<(-?)([\"']?)([A-Za-z_][A-Za-z0-9_.-]*)\2")
_WORD = re.compile(r"(?:\"(?:[^\"\\]|\\.)*\"?|'[^']*'?|[^\s\"']+)+")


@dataclass(frozen=True)
class Heredoc:
    delimiter: str
    strip_tabs: bool
    body: Piece  # the lines between the opening line and the terminator (newlines included)


@dataclass(frozen=True)
class Instruction:
    name: str  # upper case (``RUN``)
    keyword: Piece  # as written (``run``)
    offset: int
    end: int  # end of the instruction's last line (or heredoc terminator), newline excluded
    line: int
    last_line: int
    segments: tuple[Piece, ...]  # argument text per physical line, continuation character removed
    heredocs: tuple[Heredoc, ...] = ()

    @property
    def value(self) -> str:
        """The arguments as Docker joins them (segments concatenated, outer whitespace stripped)."""
        return "".join(s.src for s in self.segments).strip()

    def words(self) -> list[Piece]:
        """The arguments split on whitespace (quotes kept), each with its offset in the text."""
        out: list[Piece] = []
        for seg in self.segments:
            for m in _WORD.finditer(seg.src):
                out.append(Piece("word", m.group(0), seg.offset + m.start()))
        return out

    def json_form(self) -> list[str] | None:
        """The exec form's list (``RUN ["a", "b"]``), or ``None`` for the shell form."""
        value = self.value
        if not value.startswith("["):
            return None
        try:
            data = json.loads(value)
        except ValueError:
            return None
        return data if isinstance(data, list) and all(isinstance(x, str) for x in data) else None

    def pairs(self) -> list[tuple[Piece, Piece | None]]:
        """``ENV``/``ARG``/``LABEL`` pairs: (key, value as written) for ``K=V`` words; the legacy
        ``ENV K value with spaces`` form gives the rest of the line as the value; a name alone (``ARG NAME``) has
        ``None``."""
        words = self.words()
        if not words:
            return []
        if self.name == "ENV" and "=" not in words[0].src:
            rest = words[1:]
            value = None
            if rest:
                seg = next(s for s in self.segments if s.offset <= rest[0].offset < s.end + 1)
                value = Piece("value", seg.src[rest[0].offset - seg.offset :].rstrip(), rest[0].offset)
            return [(words[0], value)]
        out: list[tuple[Piece, Piece | None]] = []
        for w in words:
            key, eq, val = w.src.partition("=")
            out.append((Piece("key", key, w.offset), Piece("value", val, w.offset + len(key) + 1) if eq else None))
        return out


@dataclass(frozen=True)
class Dockerfile:
    text: str
    directives: dict[str, str]
    escape: str
    instructions: tuple[Instruction, ...]
    comments: tuple[Piece, ...]
    problems: tuple[Problem, ...]

    def stages(self) -> list[list[Instruction]]:
        """Instructions grouped by build stage (each ``FROM`` starts one; instructions before it form none)."""
        out: list[list[Instruction]] = []
        for ins in self.instructions:
            if ins.name == "FROM" or not out:
                out.append([])
            out[-1].append(ins)
        return out


def _continued(text: str, start: int, end: int, escape: str) -> tuple[bool, int]:
    """Whether the line ``text[start:end]`` ends with the escape character (trailing blanks allowed); the
    offset where the continuation (escape character) starts."""
    j = end
    while j > start and text[j - 1] in " \t":
        j -= 1
    if j > start and text[j - 1] == escape:
        return True, j - 1
    return False, end


def read_dockerfile(text: str) -> Dockerfile:
    """Read a Dockerfile (``Dockerfile``, ``*.dockerfile``, ``Containerfile``); never raises."""
    phys = physical_lines(text)
    directives: dict[str, str] = {}
    comments: list[Piece] = []
    problems: list[Problem] = []
    instructions: list[Instruction] = []
    i = 0
    while i < len(phys):  # parser directives: only at the very top, before any other line
        start, end, _ = phys[i]
        m = _DIRECTIVE.match(text, start, end)
        if m is None or m.group(1).lower() in directives:
            break
        directives[m.group(1).lower()] = m.group(2)
        comments.append(Piece("directive", text[start:end], start))
        i += 1
    escape = directives.get("escape", "\\")
    if escape not in ("\\", "`"):
        problems.append(Problem(1, f"invalid escape directive {escape!r} (only \\ and ` are allowed)", 0))
        escape = "\\"
    while i < len(phys):
        start, end, _ = phys[i]
        body = text[start:end]
        stripped = body.lstrip()
        if not stripped:
            i += 1
            continue
        if stripped.startswith("#"):
            comments.append(Piece("comment", body, start))
            i += 1
            continue
        i = _instruction(text, phys, i, escape, instructions, comments, problems)
    return Dockerfile(text, directives, escape, tuple(instructions), tuple(comments), tuple(problems))


def _instruction(text: str, phys: list[tuple[int, int, int]], i: int, escape: str, out: list[Instruction],
                 comments: list[Piece], problems: list[Problem]) -> int:
    start, end, _ = phys[i]
    kw = _KEYWORD.match(text, start, end)
    assert kw is not None  # the line is not blank
    keyword = Piece("keyword", kw.group(1), kw.start(1))
    name = keyword.src.upper()
    first = i
    segments: list[Piece] = []
    seg_start = kw.end(1)
    last_end = end
    while True:
        more, cut = _continued(text, seg_start if i == first else phys[i][0], phys[i][1], escape)
        seg_from = seg_start if i == first else phys[i][0]
        segments.append(Piece("segment", text[seg_from:cut], seg_from))
        last_end = phys[i][1]
        i += 1
        if not more:
            break
        while i < len(phys) and (not text[phys[i][0]:phys[i][1]].strip() or
                                 text[phys[i][0]:phys[i][1]].lstrip().startswith("#")):
            if text[phys[i][0]:phys[i][1]].strip():
                comments.append(Piece("comment", text[phys[i][0]:phys[i][1]], phys[i][0]))
            i += 1
        if i >= len(phys):
            break
    last_line = i
    heredocs: list[Heredoc] = []
    if name in _HEREDOC_FORMS or (name == "ONBUILD" and "<<" in segments[0].src):
        for seg in segments:
            for m in _HEREDOC.finditer(seg.src):
                strip, delim = m.group(1) == "-", m.group(3)
                body_start = phys[i][0] if i < len(phys) else len(text)
                j = i
                while j < len(phys):
                    line = text[phys[j][0]:phys[j][1]]
                    if (line.lstrip("\t") if strip else line) == delim:
                        break
                    j += 1
                if j >= len(phys):
                    problems.append(Problem(first + 1, f"here-document <<{delim} opened at line {first + 1} is "
                                            "never terminated", seg.offset + m.start()))
                    heredocs.append(Heredoc(delim, strip, Piece("heredoc", text[body_start:], body_start)))
                    i = len(phys)
                    last_end = len(text)
                    last_line = len(phys)
                    break
                heredocs.append(Heredoc(delim, strip, Piece("heredoc", text[body_start:phys[j][0]], body_start)))
                last_end = phys[j][1]
                i = j + 1
                last_line = i
    ins = Instruction(name, keyword, keyword.offset, last_end, first + 1, last_line, tuple(segments), tuple(heredocs))
    out.append(ins)
    _check(ins, problems)
    return i


def _check(ins: Instruction, problems: list[Problem]) -> None:
    name, value = ins.name, ins.value
    if name not in INSTRUCTIONS:
        problems.append(Problem(ins.line, f"unknown Dockerfile instruction {name!r} at line {ins.line}", ins.offset))
    elif not value:
        what = "FROM needs a base image (FROM <image>[:tag])" if name == "FROM" else f"{name} has no arguments"
        problems.append(Problem(ins.line, f"{what} at line {ins.line}", ins.offset))
    elif name in JSON_FORMS and value.startswith("[") and ins.json_form() is None:
        problems.append(Problem(ins.line, f"{name} at line {ins.line} starts like the JSON (exec) form but is not "
                                "a JSON array of strings (Docker runs it as a shell command)", ins.offset))


#: a variable reference in an instruction (``${NAME}``, ``${NAME:-default}``, ``$NAME``)
_REF = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?::?[-+][^}]*)?\}|([A-Za-z_][A-Za-z0-9_]*))")


def expand(text: str, args: dict[str, str]) -> str:
    """``${NAME}``/``$NAME`` replaced by the ARG/ENV values known so far (nested ones too; unknown ones kept)."""
    for _ in range(5):  # ARG BASE=nvidia/cuda:${CUDA_VERSION}-devel: a few rounds resolve chains
        new = _REF.sub(lambda m: args.get(m.group(1) or m.group(2), m.group(0)), text)
        if new == text:
            break
        text = new
    return text
