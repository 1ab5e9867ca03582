"""``migrate build --dual``: one build for both platforms, chosen with ``GPU_PLATFORM=cuda|hip``.

For teams that keep CUDA (the migration guide's dual-maintenance case), the migration of a build file is not
applied over the CUDA text: every construct it changes is kept twice, behind the platform switch, so the same
file configures for NVIDIA (``-DGPU_PLATFORM=cuda``, the default) and for AMD (``-DGPU_PLATFORM=hip``):

- **CMake**: a changed command ``cmd(...)`` becomes ``if(GPU_PLATFORM STREQUAL "hip")`` + the migrated command +
  ``else()`` + the original + ``endif()``; lines the migration inserts go in a hip-only ``if()``; a changed
  ``if()``/``elseif()``/``while()`` condition becomes ``(GPU_PLATFORM STREQUAL "hip" AND (<migrated>)) OR (NOT
  GPU_PLATFORM STREQUAL "hip" AND (<original>))``, which keeps the block structure. The switch is declared
  once per changed file as a cache variable (``set(... CACHE ...)`` never overrides a value given with ``-D``).
  ``cmake_minimum_required`` raises stay unguarded (a higher minimum serves both builds).
- **Makefiles**: ``GPU_PLATFORM ?= cuda`` once, and a changed logical line (assignment, rule header or recipe
  line) between ``ifeq ($(GPU_PLATFORM),hip)`` / ``else`` / ``endif`` (conditionals are read by make, so they
  work between recipe lines too).
- Other build files (setup.py, Bazel, dependency files): PyTorch's and Bazel's builds choose the platform from
  what is installed, so their edits are not applied; each stays a finding for review, with its fix described.

Edits inside a block of a previous ``--dual`` run are dropped, so a second run changes nothing. Each build keeps
its own sources: where ``convert`` wrote ``x.hip`` beside ``x.cu``, the HIP branch lists ``x.hip`` and the CUDA
branch ``x.cu`` (``renames_in_tree(root, twins=True)``); a ``.cu`` with no ``.hip`` twin is compiled as HIP in
the HIP branch, so it must then hold portable code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from cuda2rocm.migrate import rules as R
from cuda2rocm.migrate.base import Collector, FileMigration
from cuda2rocm.model import Edit, Finding
from cuda2rocm.source.edits import apply_edits
from cuda2rocm.source.formats.cmake import Command, read_cmake
from cuda2rocm.source.formats.make import Line, read_make

HIP_TEST = 'GPU_PLATFORM STREQUAL "hip"'
CMAKE_SWITCH = ('set(GPU_PLATFORM "cuda" CACHE STRING "GPU platform to build for: cuda or hip")',
                "set_property(CACHE GPU_PLATFORM PROPERTY STRINGS cuda hip)")
MAKE_SWITCH = "GPU_PLATFORM ?= cuda"
_CONDITIONS = frozenset({"if", "elseif", "while"})
_UNWRAPPED = frozenset({"cmake_minimum_required"})
_BLOCKS = frozenset({"else", "endif", "endwhile", "foreach", "endforeach", "function", "endfunction", "macro",
                     "endmacro", "block", "endblock", "return", "break", "continue"})


def dual(migration: FileMigration, kind: str, text: str) -> FileMigration:
    """The dual-platform form of ``migration`` (of ``text``, a build file of ``kind``)."""
    if migration.problems or not migration.edits:
        return migration
    if kind == "cmake":
        return _cmake(migration, text)
    if kind == "make":
        return _make(migration, text)
    return _unapplied(migration, "--dual: not applied; this build chooses the platform from what is installed, "
                      "apply it behind a platform check (torch.version.hip / a select())")


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def _indent(text: str, offset: int) -> str:
    start = _line_start(text, offset)
    head = text[start:offset]
    return head if not head.strip() else ""


def _within(edits: Sequence[Edit], start: int, end: int) -> list[Edit]:
    """Edits of the unit ``text[start:end]``: overlapping it, or insertions strictly inside it."""
    return [e for e in edits if (e.start < end and start < e.end) or (e.start == e.end and start < e.start < end)]


def _unapplied(migration: FileMigration, why: str, edits: Sequence[Edit] | None = None) -> FileMigration:
    """``edits`` (default: all) taken back: their findings stay, for review, saying why."""
    gone = set(migration.edits if edits is None else edits)
    findings = [replace(f, remedy=None, message=f"{f.message} ({why})")
                if f.remedy is not None and set(f.remedy.edits) & gone else f for f in migration.findings]
    return replace(migration, edits=tuple(e for e in migration.edits if e not in gone), findings=tuple(findings))


def _dropped(migration: FileMigration, edits: set[Edit]) -> FileMigration:
    """``edits`` (inside a previous dual block) removed with their findings."""
    findings = [f for f in migration.findings if f.remedy is None or not set(f.remedy.edits) & edits]
    return replace(migration, edits=tuple(e for e in migration.edits if e not in edits), findings=tuple(findings))


def _outside(migration: FileMigration, blocks: Sequence[tuple[int, int]]) -> FileMigration:
    """``migration`` without the edits inside the platform blocks of a previous ``--dual`` run."""
    old = {e for e in migration.edits if any(s <= e.start and e.end <= t for s, t in blocks)}
    return _dropped(migration, old) if old else migration


def _rebuilt(migration: FileMigration, new_edits: list[Edit], old_to_new: dict[Edit, Edit]) -> FileMigration:
    """The migration with its edits replaced by the dual ones; each finding's fix points at its dual edit."""
    findings: list[Finding] = []
    for f in migration.findings:
        if f.remedy is not None:
            edits = tuple(dict.fromkeys(old_to_new[e] for e in f.remedy.edits if e in old_to_new))
            f = replace(f, remedy=replace(f.remedy, edits=edits)) if edits else replace(f, remedy=None)
        findings.append(f)
    return replace(migration, edits=tuple(sorted(new_edits, key=lambda e: (e.start, e.end))),
                   findings=tuple(findings))


# -- CMake -------------------------------------------------------------------------------------------------

def _cmake_blocks(commands: Sequence[Command]) -> list[tuple[int, int]]:
    """Spans of ``if(GPU_PLATFORM STREQUAL "hip") ... endif()`` blocks a previous dual run wrote."""
    spans: list[tuple[int, int]] = []
    stack: list[tuple[int, bool]] = []
    for cmd in commands:
        if cmd.lower == "if":
            stack.append((cmd.offset, cmd.values()[:3] == ["GPU_PLATFORM", "STREQUAL", "hip"]))
        elif cmd.lower == "endif" and stack:
            start, ours = stack.pop()
            if ours:
                spans.append((start, cmd.end))
    return spans


def _cmake(migration: FileMigration, text: str) -> FileMigration:
    doc = read_cmake(text)
    migration = _outside(migration, _cmake_blocks(doc.commands))
    nl = _newline(text)
    edits = list(migration.edits)
    new_edits: list[Edit] = []
    mapping: dict[Edit, Edit] = {}
    unguarded: list[Edit] = []
    first = len(text)
    for cmd in doc.commands:
        mine = _within(edits, cmd.offset, cmd.end)
        if not mine:
            continue
        for e in mine:
            edits.remove(e)
        if cmd.lower in _UNWRAPPED:
            new_edits.extend(mine)
            mapping.update({e: e for e in mine})
            continue
        if cmd.lower in _BLOCKS:
            unguarded.extend(mine)
            continue
        if cmd.lower in _CONDITIONS and cmd.close >= 0:
            start, end = cmd.open + 1, cmd.close
            hip = _applied(text, mine, start, end)
            original = text[start:end]
            new = Edit(start, end, f"({HIP_TEST} AND ({hip.strip()})) OR (NOT {HIP_TEST} AND ({original.strip()}))",
                       mine[0].rule)
        else:
            indent = _indent(text, cmd.offset)
            hip = _applied(text, mine, cmd.offset, cmd.end)
            new = Edit(cmd.offset, cmd.end, f"if({HIP_TEST}){nl}{indent}{hip}{nl}{indent}else(){nl}{indent}"
                       f"{text[cmd.offset:cmd.end]}{nl}{indent}endif()", mine[0].rule)
        first = min(first, _line_start(text, cmd.offset))
        new_edits.append(new)
        mapping.update({e: new for e in mine})
    for e in edits:  # lines inserted between commands: hip-only
        body = e.replacement
        if body.startswith(("\n", "\r\n")):  # after a command, each line indented like it
            first_line = body.lstrip("\r\n")
            indent = first_line[:len(first_line) - len(first_line.lstrip(" \t"))]
            new = Edit(e.start, e.end, f"{nl}{indent}if({HIP_TEST}){body}{nl}{indent}endif()", e.rule)
        else:
            new = Edit(e.start, e.end, f"if({HIP_TEST}){nl}{body}{'' if body.endswith(nl) else nl}endif(){nl}", e.rule)
            first = min(first, e.start)
        new_edits.append(new)
        mapping[e] = new
    migration = _rebuilt(replace(migration, edits=tuple(new_edits + unguarded)), new_edits, mapping)
    if unguarded:
        migration = _unapplied(migration, "--dual: a block command's edit cannot be kept for both platforms; "
                               "put it behind GPU_PLATFORM by hand", unguarded)
    if not new_edits or _declares(doc.commands):
        return migration
    where = min(first, _switch_point(doc.commands, text))
    return _with_switch(migration, text, Edit(where, where, nl.join(CMAKE_SWITCH) + nl, R.DUAL_PLATFORM.id))


def _with_switch(migration: FileMigration, text: str, switch: Edit) -> FileMigration:
    """The platform switch declared, as its own edit and finding."""
    out = Collector(migration.path, text)
    out.edits.extend(migration.edits)
    out.findings.extend(migration.findings)
    out.edits.append(switch)
    out.report(R.DUAL_PLATFORM, switch.start, "one build for both platforms: GPU_PLATFORM=cuda (default) or hip "
               "chooses the branch of every migrated construct", edit=switch)
    done = out.result()
    return replace(done, edits=tuple(sorted(done.edits, key=lambda e: (e.start, e.end))))


def _declares(commands: Sequence[Command]) -> bool:
    return any(c.lower == "set" and c.values()[:1] == ["GPU_PLATFORM"] for c in commands)


def _switch_point(commands: Sequence[Command], text: str) -> int:
    """After ``cmake_minimum_required`` when it comes first, else at the first command."""
    for cmd in commands:
        if cmd.lower == "cmake_minimum_required":
            end = text.find("\n", cmd.end)
            return len(text) if end < 0 else end + 1
        return _line_start(text, cmd.offset)
    return 0


def _applied(text: str, edits: Sequence[Edit], start: int, end: int) -> str:
    """``text[start:end]`` with ``edits`` (all inside it) applied."""
    shifted = [replace(e, start=e.start - start, end=e.end - start) for e in edits]
    return apply_edits(text[start:end], shifted)


# -- Makefiles ---------------------------------------------------------------------------------------------

def _make_blocks(lines: Sequence[Line], text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    stack: list[tuple[int, bool]] = []
    for ln in lines:
        if ln.kind != "directive":
            continue
        src = " ".join(text[ln.offset:ln.end].split())
        if ln.directive in ("ifeq", "ifneq", "ifdef", "ifndef"):
            stack.append((ln.offset, src == "ifeq ($(GPU_PLATFORM),hip)"))
        elif ln.directive == "endif" and stack:
            start, ours = stack.pop()
            if ours:
                spans.append((start, ln.end))
    return spans


def _make(migration: FileMigration, text: str) -> FileMigration:
    doc = read_make(text)
    migration = _outside(migration, _make_blocks(doc.lines, text))
    nl = _newline(text)
    edits = list(migration.edits)
    new_edits: list[Edit] = []
    mapping: dict[Edit, Edit] = {}
    unguarded: list[Edit] = []
    first = len(text)
    for ln in doc.lines:
        mine = [e for e in edits if ln.offset <= e.start and e.end <= ln.end]
        if not mine:
            continue
        for e in mine:
            edits.remove(e)
        if ln.kind == "directive":
            unguarded.extend(mine)
            continue
        start = _line_start(text, ln.offset)
        hip = _applied(text, mine, start, ln.end)
        new = Edit(start, ln.end, f"ifeq ($(GPU_PLATFORM),hip){nl}{hip}{nl}else{nl}{text[start:ln.end]}{nl}endif",
                   mine[0].rule)
        first = min(first, start)
        new_edits.append(new)
        mapping.update({e: new for e in mine})
    unguarded.extend(edits)
    migration = _rebuilt(replace(migration, edits=tuple(new_edits + unguarded)), new_edits, mapping)
    if unguarded:
        migration = _unapplied(migration, "--dual: a conditional's edit cannot be kept for both platforms; put "
                               "it behind GPU_PLATFORM by hand", unguarded)
    if not new_edits or any(ln.kind == "assignment" and ln.name is not None and ln.name.src == "GPU_PLATFORM"
                            for ln in doc.lines):
        return migration
    return _with_switch(migration, text, Edit(first, first, MAKE_SWITCH + nl, R.DUAL_PLATFORM.id))
