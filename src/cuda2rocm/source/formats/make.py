"""Makefiles (GNU make syntax), read as logical lines with the offset of every word (never evaluated).

A logical line is one or more physical lines joined by backslash-newline continuations. Each is one of:

- ``assignment``: ``[override|export|private ...] NAME op value`` with ``op`` one of ``=``, ``:=``, ``::=``,
  ``:::=``, ``?=``, ``+=``, ``!=``;
- ``rule``: ``targets : prerequisites [| order-only] [; recipe]`` (``::`` double-colon rules, pattern rules
  ``%.o: %.cu``, static pattern rules ``objs: %.o: %.c``);
- ``recipe``: a tab-indented line after a rule (its ``command`` is what make hands to the shell);
- ``directive``: include/-include/sinclude, ifeq/ifneq/ifdef/ifndef/else/endif, define/endef, export,
  unexport, override, undefine, vpath; lines between ``define`` and ``endef`` are of kind ``define``;
- ``comment``, ``blank``, or ``other`` (a bare ``$(eval ...)``/``$(error ...)`` call, or an error).

Words are split on whitespace outside ``$(...)``/``${...}``; a continuation counts as whitespace. ``#`` starts a
comment outside recipes unless escaped (``\\#``) or inside a variable reference. ``tokens`` cover the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from cuda2rocm.source.formats._base import Piece, Problem, continued, cover, physical_lines

WORD = "word"
OP = "op"
COMMENT = "comment"
RECIPE = "recipe"
DEFINE_BODY = "define_body"

_RUN = re.compile(r"[^\\#$ \t\r\n(){}]+")
ASSIGNMENT_OPS = (":::=", "::=", ":=", "?=", "+=", "!=", "=")
MODIFIERS = frozenset({"override", "export", "private", "unexport"})
CONDITIONALS = frozenset({"ifeq", "ifneq", "ifdef", "ifndef", "else", "endif"})
DIRECTIVES = CONDITIONALS | frozenset({"include", "-include", "sinclude", "define", "endef", "export",
                                       "unexport", "override", "undefine", "vpath", "private"})


@dataclass(frozen=True)
class Line:
    """One logical line. ``offset``/``end`` exclude the final newline; ``line``..``last_line`` are 1-based."""

    kind: str
    offset: int
    end: int
    line: int
    last_line: int
    words: tuple[Piece, ...] = ()  # code words, comment excluded (recipes: the command's words)
    comment: Piece | None = None
    directive: str = ""  # the directive's name (``ifeq``, ``include``, ...)
    # assignments
    modifiers: tuple[str, ...] = ()
    name: Piece | None = None
    op: Piece | None = None
    value: Piece | None = None  # the value as written (leading whitespace dropped, as make does)
    # rules
    targets: tuple[Piece, ...] = ()
    colon: Piece | None = None
    prerequisites: tuple[Piece, ...] = ()
    order_only: tuple[Piece, ...] = ()
    # recipes (and a rule's inline ``; recipe``): the command text after the tab and ``@``/``-``/``+`` prefixes
    command: Piece | None = None
    tokens: tuple[Piece, ...] = field(default=(), repr=False)

    @property
    def pattern(self) -> bool:
        """A pattern rule (``%.o: %.cu``)."""
        return self.kind == "rule" and any("%" in t.src for t in self.targets)


@dataclass(frozen=True)
class MakeFile:
    text: str
    lines: tuple[Line, ...]
    problems: tuple[Problem, ...]

    @property
    def tokens(self) -> tuple[Piece, ...]:
        """Pieces covering the text: each line's tokens and the newlines between them."""
        return tuple(cover(self.text, [t for ln in self.lines for t in ln.tokens], gap="newline"))

    def of_kind(self, kind: str) -> list[Line]:
        return [ln for ln in self.lines if ln.kind == kind]


def _scan_words(text: str, start: int, end: int, *, comments: bool) -> tuple[list[Piece], Piece | None, bool]:
    """Words of ``text[start:end]`` (continuations are whitespace), the comment, and whether a variable
    reference is left open."""
    words: list[Piece] = []
    depth: list[str] = []
    i, w = start, -1
    comment: Piece | None = None
    run = _RUN.match
    while i < end:
        m = run(text, i, end)
        if m is not None:  # ordinary characters: part of the current word
            w = i if w < 0 else w
            i = m.end()
            continue
        c = text[i]
        if c == "\\" and i + 1 < end and text[i + 1] in "\r\n" and not depth:
            if w >= 0:
                words.append(Piece(WORD, text[w:i], w))
                w = -1
            i += 3 if text.startswith("\r\n", i + 1) else 2
            continue
        if c == "\\" and i + 1 < end:
            w = i if w < 0 else w
            i += 2
            continue
        if c == "#" and comments and not depth:
            if w >= 0:
                words.append(Piece(WORD, text[w:i], w))
                w = -1
            comment = Piece(COMMENT, text[i:end], i)
            break
        if c in " \t\r\n" and not depth:
            if w >= 0:
                words.append(Piece(WORD, text[w:i], w))
                w = -1
            i += 1
            continue
        w = i if w < 0 else w
        if c == "$" and i + 1 < end and text[i + 1] in "({":
            depth.append(")" if text[i + 1] == "(" else "}")
            i += 2
            continue
        if depth and c in "({":
            depth.append(")" if c == "(" else "}")
        elif depth and c == depth[-1]:
            depth.pop()
        elif c == "$" and i + 1 < end and text[i + 1] == "$":
            i += 1
        i += 1
    if w >= 0:
        words.append(Piece(WORD, text[w:end], w))
    return words, comment, bool(depth)


def _separator(text: str, start: int, end: int) -> tuple[str, int, str]:
    """The first assignment operator or rule colon outside variable references: (``"assignment"`` or
    ``"rule"``, its offset, its text); ``("", -1, "")`` when there is neither."""
    for i in _top_level(text, start, end, escapes=True):
        c = text[i]
        if c in ":?+!=" and (c != ":" or not _drive_letter(text, start, i)):
            for op in ASSIGNMENT_OPS:
                if text.startswith(op, i):
                    return "assignment", i, op
            if c == ":":
                return "rule", i, "::" if text.startswith("::", i) else ":"
            if c == "=":
                return "assignment", i, "="
        elif c == "#":
            break
    return "", -1, ""


def _top_level(text: str, start: int, end: int, *, escapes: bool = False) -> Iterator[int]:
    """The offsets in ``text[start:end]`` outside variable references (``$(...)``, ``${...}``); with
    ``escapes``, a backslash and the character after it are passed over too."""
    depth = 0
    i = start
    while i < end:
        c = text[i]
        if c == "$" and i + 1 < end and text[i + 1] in "({":
            depth += 1
            i += 2
            continue
        if depth:
            if c in "({":
                depth += 1
            elif c in ")}":
                depth -= 1
        elif escapes and c == "\\":
            i += 2
            continue
        else:
            yield i
        i += 1


def _drive_letter(text: str, start: int, i: int) -> bool:
    """``C:\\path`` (a Windows path), not a rule colon."""
    return i - 1 >= start and text[i - 1].isalpha() and (i - 2 < start or text[i - 2] in " \t") and \
        i + 1 < len(text) and text[i + 1] in "\\/"


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.lines: list[Line] = []
        self.problems: list[Problem] = []
        self.in_rule = False
        self.define: Line | None = None
        self.conditionals: list[Line] = []

    def read(self) -> None:
        text = self.text
        phys = physical_lines(text)
        i = 0
        while i < len(phys):
            first = i
            while continued(text, phys[i][0], phys[i][1]) and i + 1 < len(phys):
                i += 1
            self.logical(phys[first][0], phys[i][1], first + 1, i + 1)
            i += 1
        if self.define is not None:
            self.problem(self.define.line, f"define at line {self.define.line} has no endef", self.define.offset)
        for cond in self.conditionals:
            self.problem(cond.line, f"{cond.directive} at line {cond.line} has no endif", cond.offset)

    def problem(self, line: int, message: str, offset: int) -> None:
        self.problems.append(Problem(line, message, offset))

    def add(self, kind: str, start: int, end: int, line: int, last: int, pieces: list[Piece], **kw: object) -> Line:
        ordered = sorted(pieces, key=lambda p: p.offset)
        ln = Line(kind, start, end, line, last, tokens=tuple(cover(self.text, ordered, start, end)), **kw)  # type: ignore[arg-type]
        self.lines.append(ln)
        return ln

    def logical(self, start: int, end: int, line: int, last: int) -> None:
        text = self.text
        if self.define is not None:
            words, _, _ = _scan_words(text, start, end, comments=False)
            if words and words[0].src == "endef":
                self.define = None
                self.add("directive", start, end, line, last, list(words), words=tuple(words), directive="endef")
            else:
                body = [Piece(DEFINE_BODY, text[start:end], start)] if end > start else []
                self.add("define", start, end, line, last, body)
            return
        if text.startswith("\t", start) and self.in_rule:
            self.recipe(start, end, line, last)
            return
        words, comment, open_ref = _scan_words(text, start, end, comments=True)
        extra = [comment] if comment else []
        if not words:
            self.add("comment" if comment else "blank", start, end, line, last, extra, comment=comment)
            return
        if open_ref:
            self.problem(line, "unterminated variable reference ($( or ${ never closed)", start)
        code_end = comment.offset if comment else end
        mods: list[str] = []
        k = 0
        while k < len(words) - 1 and words[k].src in MODIFIERS:
            mods.append(words[k].src)
            k += 1
        head = words[k].src
        kind, at, op = _separator(text, words[k].offset, code_end)
        if (head in CONDITIONALS and k == 0) or head == "define" or \
                (head in ("include", "-include", "sinclude", "vpath", "undefine") and kind != "assignment"):
            self.directive(head, start, end, line, last, words, comment, tuple(mods))
        elif kind == "assignment":
            self.assignment(start, end, line, last, words, k, at, op, code_end, comment, tuple(mods))
        elif kind == "rule":
            self.rule(start, end, line, last, at, op, code_end, comment)
        elif mods or head in MODIFIERS:  # export VAR, unexport VAR, a bare export
            self.directive(mods[0] if mods else head, start, end, line, last, words, comment, tuple(mods))
        else:
            if text.startswith("\t", start):
                self.problem(line, "recipe line before the first rule (recipe commences before first target)", start)
            elif not head.startswith("$"):
                self.problem(line, f"missing separator: {head!r} is neither a rule nor an assignment", start)
            self.in_rule = False
            self.add("other", start, end, line, last, [*words, *extra], words=tuple(words), comment=comment)

    def directive(self, name: str, start: int, end: int, line: int, last: int, words: list[Piece],
                  comment: Piece | None, mods: tuple[str, ...]) -> None:
        extra = [comment] if comment else []
        ln = self.add("directive", start, end, line, last, [*words, *extra], words=tuple(words), comment=comment,
                      directive=name, modifiers=mods)
        if name in ("ifeq", "ifneq", "ifdef", "ifndef"):
            self.conditionals.append(ln)
        elif name == "endif":
            if self.conditionals:
                self.conditionals.pop()
            else:
                self.problem(line, "endif without a matching if", start)
        elif name == "else" and not self.conditionals:
            self.problem(line, "else without a matching if", start)
        elif name == "define":
            self.define = ln
        elif name == "endef":
            self.problem(line, "endef without a matching define", start)
        if name not in CONDITIONALS:
            self.in_rule = False

    def assignment(self, start: int, end: int, line: int, last: int, words: list[Piece], k: int, at: int,
                   op: str, code_end: int, comment: Piece | None, mods: tuple[str, ...]) -> None:
        text = self.text
        name_words = [w for w in words[k:] if w.offset < at]
        name_start = name_words[0].offset if name_words else at
        name_end = at
        while name_end > name_start and text[name_end - 1] in " \t":
            name_end -= 1
        name = Piece(WORD, text[name_start:name_end], name_start)
        op_piece = Piece(OP, op, at)
        vstart = at + len(op)
        while vstart < code_end and text[vstart] in " \t":
            vstart += 1
        value = Piece("value", text[vstart:code_end], vstart)
        value_words, _, _ = _scan_words(text, vstart, code_end, comments=False)
        pieces = [*words[:k], name, op_piece, *value_words, *([comment] if comment else [])]
        self.in_rule = False
        self.add("assignment", start, end, line, last, pieces, words=(*words[:k], name, *value_words),
                 comment=comment, modifiers=mods, name=name, op=op_piece, value=value)

    def rule(self, start: int, end: int, line: int, last: int, at: int, op: str,
             code_end: int, comment: Piece | None) -> None:
        text = self.text
        targets, _, _ = _scan_words(text, start, at, comments=False)
        colon = Piece(OP, op, at)
        semi = _unreferenced(text, at + len(op), code_end, ";")
        body_end = semi if semi >= 0 else code_end
        bar = _unreferenced(text, at + len(op), body_end, "|")
        prereqs, _, _ = _scan_words(text, at + len(op), bar if bar >= 0 else body_end, comments=False)
        order, _, _ = _scan_words(text, bar + 1, body_end, comments=False) if bar >= 0 else ([], None, False)
        pieces: list[Piece] = [*targets, colon, *prereqs]
        if bar >= 0:
            pieces.append(Piece(OP, "|", bar))
            pieces.extend(order)
        command = None
        if semi >= 0:
            pieces.append(Piece(OP, ";", semi))
            # after ``;`` the rest of the logical line is the recipe (a ``#`` there belongs to the shell)
            cstart = semi + 1
            while cstart < end and text[cstart] in " \t":
                cstart += 1
            command = Piece(RECIPE, text[cstart:end], cstart)
            if end > cstart:
                pieces.append(command)
            comment = None
        elif comment:
            pieces.append(comment)
        self.in_rule = True
        self.add("rule", start, end, line, last, pieces, words=(*targets, *prereqs, *order), comment=comment,
                 targets=tuple(targets),
                 colon=colon, prerequisites=tuple(prereqs), order_only=tuple(order), command=command)

    def recipe(self, start: int, end: int, line: int, last: int) -> None:
        text = self.text
        cstart = start + 1
        while cstart < end and text[cstart] in "@-+ \t":
            cstart += 1
        command = Piece(RECIPE, text[cstart:end], cstart)
        words, _, _ = _scan_words(text, cstart, end, comments=False)
        self.add("recipe", start, end, line, last, [command] if end > cstart else [], words=tuple(words),
                 command=command)


def _unreferenced(text: str, start: int, end: int, char: str) -> int:
    """Offset of the first ``char`` outside variable references in ``text[start:end]``, or -1."""
    return next((i for i in _top_level(text, start, end) if text[i] == char), -1)


def read_make(text: str) -> MakeFile:
    """Read a Makefile (``Makefile``, ``GNUmakefile``, ``*.mk``); never raises."""
    reader = _Reader(text)
    reader.read()
    return MakeFile(text, tuple(reader.lines), tuple(reader.problems))
