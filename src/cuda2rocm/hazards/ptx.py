"""Inline PTX: find ``asm``/``asm volatile`` blocks, split them into instructions, triage each one against
the table in ``data/ptx.csv`` (instruction prefix -> HIP/clang replacement, or NVIDIA-only hardware)."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from cuda2rocm.hazards.context import Source
from cuda2rocm.source.tokens import STRING

ASM_WORDS = frozenset({"asm", "__asm__", "__asm"})
_QUALIFIERS = frozenset({"volatile", "__volatile__", "__volatile", "goto", "inline"})
_SPECIAL = re.compile(r"%(laneid|warpid|smid|clock64|clock|globaltimer|lanemask_lt)\b")


@dataclass(frozen=True)
class Triage:
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
            if src.tokens[k].kind != STRING:
                break
            parts.append(_unquote(src.src(k)))
        yield i, "".join(parts)


def _unquote(literal: str) -> str:
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
    if opcode.startswith("mov") and (m := _SPECIAL.search(stmt)):
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
