"""pip requirements files (``requirements*.txt``, constraints), read line by line with offsets.

Physical lines ending in ``\\`` continue on the next one; ``#`` at the start of a line or after whitespace
starts a comment. Each logical line with code is a requirement (``name[extras] specifier ; marker``,
``name @ url``, a bare URL or path, ``-e``/``--editable`` targets), with its trailing per-requirement options
(``--hash=...``), or an option line (``-r``/``-c`` includes, ``--index-url``, ``--extra-index-url``,
``-f``/``--find-links``, ``--trusted-host``, ...). The requirement itself is parsed with ``packaging``
(PEP 508); one it rejects is a :class:`Problem` and ``requirement`` is ``None``. Every span is a
:class:`Piece` of the original text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from packaging.requirements import InvalidRequirement, Requirement

from cuda2rocm.source.formats._base import Piece, Problem, continued, physical_lines

#: a requirement's name (PEP 508), before its extras and specifiers
REQUIREMENT_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")
_EXTRAS = re.compile(r"\s*(\[[^\]]*\])")
_COMMENT = re.compile(r"(?:^|(?<=[ \t]))#")
#: options that take a value (``-r file``, ``--index-url=URL``)
VALUE_OPTIONS = frozenset({"-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-i", "--index-url",
                           "--extra-index-url", "-f", "--find-links", "--trusted-host", "--hash", "--global-option",
                           "--config-settings", "--install-option", "--only-binary", "--no-binary", "--use-feature",
                           "--progress-bar", "--platform", "--python-version", "--implementation", "--abi"})


@dataclass(frozen=True)
class Option:
    name: Piece  # ``--index-url``
    value: Piece | None  # ``https://...`` (``None`` for flags like ``--pre``)


@dataclass(frozen=True)
class RequirementLine:
    """A logical line with code. ``kind`` is ``requirement`` or ``option``."""

    kind: str
    offset: int
    end: int
    line: int
    last_line: int
    code: Piece  # the line without its comment (continuations kept as written)
    comment: Piece | None = None
    options: tuple[Option, ...] = ()
    # requirements
    spec: Piece | None = None  # the requirement without its options
    name: Piece | None = None
    extras: Piece | None = None
    specifier: Piece | None = None
    url: Piece | None = None
    marker: Piece | None = None
    editable: bool = False
    requirement: Requirement | None = None

    @property
    def hashes(self) -> tuple[str, ...]:
        return tuple(o.value.src for o in self.options if o.name.src == "--hash" and o.value is not None)

    def option(self, *names: str) -> Option | None:
        return next((o for o in self.options if o.name.src in names), None)


@dataclass(frozen=True)
class RequirementsFile:
    text: str
    lines: tuple[RequirementLine, ...]
    comments: tuple[Piece, ...]
    problems: tuple[Problem, ...]

    @property
    def requirements(self) -> list[RequirementLine]:
        return [ln for ln in self.lines if ln.kind == "requirement"]


def _words(text: str, start: int, end: int) -> list[Piece]:
    """Whitespace-separated words of ``text[start:end]``; a continuation counts as whitespace."""
    out: list[Piece] = []
    for m in re.finditer(r"(?:[^ \t\r\n\\]|\\(?![\r\n]))+", text[start:end]):
        out.append(Piece("word", m.group(0), start + m.start()))
    return out


def _span(text: str, start: int, end: int, kind: str) -> Piece:
    while end > start and text[end - 1] in " \t":
        end -= 1
    while start < end and text[start] in " \t":
        start += 1
    return Piece(kind, text[start:end], start)


def read_requirements(text: str) -> RequirementsFile:
    """Read a pip requirements or constraints file; never raises."""
    lines: list[RequirementLine] = []
    comments: list[Piece] = []
    problems: list[Problem] = []
    phys = physical_lines(text)
    i = 0
    while i < len(phys):
        first = i
        while continued(text, phys[i][0], phys[i][1]) and not text[phys[i][0]:phys[i][1]].lstrip().startswith("#") \
                and i + 1 < len(phys):
            i += 1
        start, end = phys[first][0], phys[i][1]
        i += 1
        m = _COMMENT.search(text, start, end)
        comment = Piece("comment", text[m.start():end], m.start()) if m else None
        if comment:
            comments.append(comment)
        code_end = comment.offset if comment else end
        words = _words(text, start, code_end)
        if not words:
            continue
        code = _span(text, words[0].offset, words[-1].end, "code")
        ln = _line(text, words, code, comment, first + 1, i, problems)
        lines.append(ln)
    return RequirementsFile(text, tuple(lines), tuple(comments), tuple(problems))


def _options(words: list[Piece]) -> list[Option]:
    out: list[Option] = []
    k = 0
    while k < len(words):
        w = words[k]
        name, eq, value = w.src.partition("=")
        if not w.src.startswith("-"):
            k += 1
            continue
        if eq and name.startswith("--"):
            out.append(Option(Piece("option", name, w.offset), Piece("value", value, w.offset + len(name) + 1)))
        elif name in VALUE_OPTIONS and k + 1 < len(words):
            out.append(Option(Piece("option", w.src, w.offset), Piece("value", words[k + 1].src, words[k + 1].offset)))
            k += 1
        elif not name.startswith("--") and len(name) > 2 and name[:2] in VALUE_OPTIONS:  # -rfile, -ihttps://...
            out.append(Option(Piece("option", name[:2], w.offset), Piece("value", w.src[2:], w.offset + 2)))
        else:
            out.append(Option(Piece("option", w.src, w.offset), None))
        k += 1
    return out


def _line(text: str, words: list[Piece], code: Piece, comment: Piece | None, line: int, last: int,
          problems: list[Problem]) -> RequirementLine:
    common = {"offset": code.offset, "end": comment.end if comment else code.end, "line": line, "last_line": last,
              "code": code, "comment": comment}
    if words[0].src.startswith("-"):
        options = _options(words)
        target = options[0] if options and options[0].name.src in ("-e", "--editable") else None
        if target is None or target.value is None:
            return RequirementLine("option", options=tuple(options), **common)  # type: ignore[arg-type]
        return RequirementLine("requirement", options=tuple(options[1:]), spec=target.value, url=target.value,
                               editable=True, **common)  # type: ignore[arg-type]
    k = next((j for j, w in enumerate(words) if w.src.startswith("--") and j > 0), len(words))
    spec = _span(text, words[0].offset, words[k - 1].end, "spec")
    trailing = tuple(_options(words[k:]))
    joined = re.sub(r"\\\r?\n", " ", spec.src)
    name_m = REQUIREMENT_NAME.match(spec.src)
    if name_m is None or re.match(r"[A-Za-z][\w+.-]*://|\.{0,2}/|[A-Za-z]:\\", spec.src):
        return RequirementLine("requirement", options=trailing, spec=spec, url=spec, **common)  # type: ignore[arg-type]
    name = Piece("name", name_m.group(0), spec.offset)
    pos = name_m.end()
    extras = None
    ex = _EXTRAS.match(spec.src, pos)
    if ex:
        extras = Piece("extras", ex.group(1), spec.offset + ex.start(1))
        pos = ex.end()
    semi = _marker_start(spec.src, pos)
    body = _span(spec.src, pos, semi if semi >= 0 else len(spec.src), "body")
    marker = _span(text, spec.offset + semi + 1, spec.end, "marker") if semi >= 0 else None
    url = specifier = None
    if body.src.startswith("@"):
        u = _span(spec.src, body.offset + 1, body.offset + len(body.src), "url")
        url = Piece("url", u.src, spec.offset + u.offset)
    elif body.src:
        specifier = Piece("specifier", body.src, spec.offset + body.offset)
    requirement = None
    try:
        requirement = Requirement(joined)
    except (InvalidRequirement, SyntaxError, ValueError) as exc:  # packaging's marker parser can raise the last two
        problems.append(Problem(line, f"invalid requirement {joined!r}: {str(exc).splitlines()[0]}", spec.offset))
    return RequirementLine("requirement", options=trailing, spec=spec, name=name, extras=extras, specifier=specifier,
                           url=url, marker=marker, requirement=requirement, **common)  # type: ignore[arg-type]


def _marker_start(spec: str, pos: int) -> int:
    """Offset of the ``;`` that starts the environment marker (after a URL it must follow whitespace)."""
    at_url = spec[pos:].lstrip().startswith("@")
    for m in re.finditer(";", spec[pos:]):
        j = pos + m.start()
        if not at_url or spec[j - 1 : j] in (" ", "\t"):
            return j
    return -1
