"""Inline PTX: find ``asm``/``asm volatile`` blocks, split them into instructions, triage each one against
the table in ``data/ptx.csv`` (instruction prefix -> HIP/clang replacement, or NVIDIA-only hardware)."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from functools import lru_cache
from importlib import resources
from typing import NamedTuple

from cuda2rocm.hazards.context import Source
from cuda2rocm.lazyre import lazy
from cuda2rocm.source.tokens import STRING

ASM_WORDS = frozenset({"asm", "__asm__", "__asm"})
_QUALIFIERS = frozenset({"volatile", "__volatile__", "__volatile", "goto", "inline"})
_SPECIAL = lazy(r"%(laneid|warpid|smid|clock64|clock|globaltimer|lanemask_lt)\b")


class Triage(NamedTuple):
    key: str  # table key (``cvt.rn``), or the opcode itself when unknown
    opcode: str  # as written (``cvt.rn.f16.f32``)
    category: str  # builtin | nvidia-hw | manual
    replacement: str


@lru_cache(maxsize=1)
def table() -> dict[str, tuple[str, str]]:
    text = resources.files("cuda2rocm.hazards").joinpath("data/ptx.csv").read_text(encoding="utf-8")
    return {r["instruction"]: (r["category"], r["replacement"].replace(";", ",")) for r in csv.DictReader(
        text.splitlines())}


def asm_blocks(src: Source) -> Iterator[tuple[int, str]]:
    """(index of the ``asm`` token, the concatenated template text) for every inline-assembly statement."""
    for i in src.idents(ASM_WORDS):
        j = src.next(i)
        while src.src(j) in _QUALIFIERS:
            j = src.next(j)
        if src.src(j) != "(" or j not in src.pairs:
            continue
        parts = []
        for k in src.range_code(j + 1, src.pairs[j]):
            if src.kind(k) != STRING:
                break
            parts.append(unquote(src.src(k)))
        yield i, "".join(parts)


def unquote(literal: str) -> str:
    """The text of a C string literal token (prefix and quotes dropped, ``\\n`` a newline, ``%%`` a ``%``)."""
    body = literal[literal.index('"') + 1 : literal.rindex('"')]
    return body.replace("\\n", "\n").replace("\\t", " ").replace('\\"', '"').replace("%%", "%")


def instructions(template: str) -> list[str]:
    """Instruction statements of a PTX template, without predicates, labels, braces and directives."""
    out = []
    for stmt in re.split(r"[;\n]", template):
        s = stmt.strip().strip("{}").strip()
        s = re.sub(r"^[A-Za-z_$][\w$]*:\s*", "", s)  # label
        s = re.sub(r"^@!?%?\w+\s+", "", s)  # predicate guard
        if s and not s.startswith((".", "//")):
            out.append(s)
    return out


def triage(stmt: str) -> Triage:
    opcode = stmt.split()[0]
    if opcode.startswith("mov") and (m := _SPECIAL().search(stmt)):
        key = f"mov.%{m.group(1)}"
        category, replacement = table()[key]
        return Triage(key, opcode, category, replacement)
    parts = opcode.split(".")
    for n in range(len(parts), 0, -1):
        key = ".".join(parts[:n])
        if key in table():
            category, replacement = table()[key]
            return Triage(key, opcode, category, replacement)
    return Triage(opcode, opcode, "manual", "")


def triaged_blocks(src: Source) -> Iterator[tuple[int, list[Triage]]]:
    """Each asm block with its distinct triaged instructions (first occurrence order)."""
    for i, template in asm_blocks(src):
        seen: dict[str, Triage] = {}
        for stmt in instructions(template):
            t = triage(stmt)
            seen.setdefault(t.key, t)
        yield i, list(seen.values())


class AsmStatement(NamedTuple):
    """An ``asm`` statement taken apart: its template, operands as (constraint, expression text) per section
    (outputs, inputs), the clobbers, and the index of its closing parenthesis."""

    template: str
    outputs: tuple[tuple[str, str], ...]
    inputs: tuple[tuple[str, str], ...]
    clobbers: tuple[str, ...]
    close: int


def asm_statement(src: Source, i: int) -> AsmStatement | None:
    """The statement of the ``asm`` token at ``i``; None when it is not one this reader takes apart (named
    operands, ``asm goto``, a template that is not string literals)."""
    j = src.next(i)
    while src.src(j) in _QUALIFIERS:
        if src.src(j) == "goto":
            return None
        j = src.next(j)
    if src.src(j) != "(" or j not in src.pairs:
        return None
    close = src.pairs[j]
    sections: list[list[int]] = [[]]
    k = src.next(j)
    while k < close:
        if src.src(k) in (":", "::"):  # `::` is two separators (no outputs: `asm("..." :: "r"(x))`)
            sections.extend([] for _ in src.src(k))
        else:
            sections[-1].append(k)
            if src.src(k) in ("(", "[", "{") and k in src.pairs:
                sections[-1].append(src.pairs[k])
                k = src.pairs[k]
        k = src.next(k)
    strings = sections[0]
    if not strings or any(src.kind(s) != STRING for s in strings):
        return None
    template = "".join(unquote(src.src(s)) for s in strings)
    if len(sections) > 4:
        return None
    operands: list[tuple[tuple[str, str], ...]] = []
    for section in [*sections[1:3], [], []][:2]:
        found = []
        for group in _split(src, section):  # "constraint" ( expr ): the string, '(' and its ')'
            if len(group) != 3 or src.tokens[group[0]].kind != STRING or src.src(group[1]) != "(":
                return None
            expr = src.text[src.tokens[group[1]].end:src.tokens[group[2]].offset].strip()
            found.append((unquote(src.src(group[0])), expr))
        operands.append(tuple(found))
    clobbers = []
    for group in _split(src, sections[3] if len(sections) > 3 else []):
        if len(group) != 1 or src.tokens[group[0]].kind != STRING:
            return None
        clobbers.append(unquote(src.src(group[0])))
    return AsmStatement(template, operands[0], operands[1], tuple(clobbers), close)


def _split(src: Source, section: list[int]) -> list[list[int]]:
    """A section's token indexes split at its commas (none: no groups)."""
    groups: list[list[int]] = [[]]
    for k in section:
        if src.src(k) == ",":
            groups.append([])
        else:
            groups[-1].append(k)
    return [g for g in groups if g] if section else []


@lru_cache(maxsize=1)
def rewrites() -> dict[str, tuple[str, str]]:
    """Normalised PTX statement -> (operand constraints, C++ replacement): ``data/ptx_rewrites.csv``."""
    text = resources.files("cuda2rocm.hazards").joinpath("data/ptx_rewrites.csv").read_text(encoding="utf-8")
    rows = csv.DictReader(line for line in text.splitlines() if not line.startswith("#"))
    return {normalise(r["ptx"]): (r["constraints"], r["cpp"]) for r in rows}


def normalise(stmt: str) -> str:
    """One spelling of a PTX statement: no trailing ';', single spaces, none around ',' and inside brackets."""
    s = " ".join(stmt.strip().rstrip(";").split())
    return re.sub(r"\s*([,\[\]])\s*", r"\1", s).replace("[", " [").replace("  ", " ").strip()


def rewrite(stmt: AsmStatement) -> str | None:
    """The C++ expression that means exactly what the statement does, when ``ptx_rewrites.csv`` lists it."""
    body = [s for s in stmt.template.split(";") if s.strip()]  # the raw text: a predicate or label is no match
    if len(body) != 1 or set(stmt.clobbers) - {"memory"}:
        return None
    found = rewrites().get(normalise(body[0]))
    if found is None:
        return None
    constraints, cpp = found
    operands = stmt.outputs + stmt.inputs
    if "|".join(c for c, _ in operands) != constraints:
        return None
    for n in range(len(operands) - 1, -1, -1):  # %10 before %1; the table puts every %n in parentheses
        cpp = cpp.replace(f"%{n}", operands[n][1])
    return cpp
