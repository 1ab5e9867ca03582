"""nvcc options -> hipcc/clang options, over words that keep their offsets in the file they come from.

The table is data (``migrate/data/nvcc_flags.csv``). Callers (CMake, Makefiles, setup.py) hand over the words
of one nvcc option list as (text, offset) pairs, already split by the reader of their format; the result is the
edits that rewrite them and one :class:`FlagChange` per option for the findings. Words that are not nvcc options
(``-O3``, ``-DX``, ``-I...``, variable references) are left alone.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from cuda2rocm.datafiles import packaged_csv
from cuda2rocm.model import Edit

#: nvcc -Werror kinds (``-Werror all-warnings``); clang's -Werror takes none
_WERROR_KINDS = frozenset({"all-warnings", "cross-execution-space-call", "reorder", "default-stream-launch",
                           "ext-lambda-captures-this", "deprecated-declarations"})


@dataclass(frozen=True)
class FlagRow:
    nvcc: str
    value: str  # none | joined | separate
    action: str  # map | drop | report | arch
    hip: str
    severity: str
    note: str


@dataclass(frozen=True)
class Word:
    """One word of an option list: its text and where it starts in the file."""

    src: str
    offset: int

    @property
    def end(self) -> int:
        return self.offset + len(self.src)


@dataclass(frozen=True)
class FlagChange:
    """One nvcc option found: what it was, what it became (``""``: removed), where."""

    row: FlagRow
    original: str
    replacement: str
    offset: int
    edit: Edit | None = None  # the edit among translate()'s that makes the change (None: kept as written)


@functools.lru_cache(maxsize=1)
def table() -> dict[str, FlagRow]:
    rows = [FlagRow(**row) for row in packaged_csv("cuda2rocm.migrate", "data/nvcc_flags.csv")]
    return {row.nvcc: row for row in rows}


def _split(word: str) -> tuple[FlagRow | None, str | None]:
    """The table row for ``word`` and its joined value (``-arch=sm_80`` -> (arch row, "sm_80"))."""
    rows = table()
    if word in rows:
        return rows[word], None
    if "=" in word:
        name, value = word.split("=", 1)
        row = rows.get(name)
        if row is not None and row.value != "none":
            return row, value
    return None, None


def offload_flags(gfx: Sequence[str]) -> str:
    return " ".join(f"--offload-arch={g}" for g in gfx)


def translate(text: str, words: Sequence[Word], gfx: Sequence[str], *, arch: str = "drop",
              quoted_arguments: bool = False) -> tuple[list[Edit], list[FlagChange]]:
    """Edits rewriting the nvcc options among ``words`` (in ``text``) and the changes made.

    ``arch``: ``drop`` removes architecture options (CMake: the targets' HIP architectures say it), ``offload``
    replaces the first by ``--offload-arch=`` for each of ``gfx`` and removes the others.
    ``quoted_arguments``: the words come from arguments that may be quoted one by one (CMake: ``-Xcudafe
    "--diag_suppress=x"``), so an option and its value in two arguments are rewritten with the quotes of the one
    that is quoted whole (inside the quotes, the edit would leave one of them behind).
    """
    edits: list[Edit] = []
    changes: list[FlagChange] = []
    arch_done = False
    i = 0
    while i < len(words):
        word = words[i]
        row, value = _split(word.src)
        if row is None:
            i += 1
            continue
        span = [word]
        if row.value == "separate" and value is None and i + 1 < len(words) and (
                row.nvcc not in ("-Werror", "--Werror") or words[i + 1].src in _WERROR_KINDS):
            value = words[i + 1].src
            span.append(words[i + 1])
        i += len(span)
        start, end = span[0].offset, span[-1].end
        if quoted_arguments and len(span) == 2:
            start, end = _with_own_quotes(text, span[0]), _with_own_quotes(text, span[1], end=True)
        original = text[start:end]
        replacement = _replacement(row, value, gfx, arch, arch_done)
        if row.action == "arch":
            arch_done = True
        if replacement == original and row.action != "keep":
            continue
        edit = None
        if replacement != original:
            edit = (_removal(text, start, end) if not replacement
                    else Edit(start, end, replacement, "nvcc-flag"))
            edits.append(edit)
        changes.append(FlagChange(row, original, replacement, start, edit))
    return edits, changes


def _with_own_quotes(text: str, word: Word, *, end: bool = False) -> int:
    """Where ``word`` starts (or, ``end``, ends) counting the quotes around it when it is alone inside them."""
    before, after = text[word.offset - 1:word.offset], text[word.end:word.end + 1]
    whole = word.offset > 0 and before in ("\"", "'") and after == before
    if end:
        return word.end + 1 if whole else word.end
    return word.offset - 1 if whole else word.offset


def _replacement(row: FlagRow, value: str | None, gfx: Sequence[str], arch: str, arch_done: bool) -> str:
    if row.action == "arch":
        return offload_flags(gfx) if arch == "offload" and not arch_done else ""
    if row.action == "keep":
        return _keep(row, value)
    if row.action in ("drop", "report"):
        verbose = row.nvcc in ("--ptxas-options", "-Xptxas") and value in ("-v", "--verbose")
        return row.hip if verbose else ""
    if row.nvcc in ("-Werror", "--Werror"):
        # only all-warnings is clang's -Werror; a narrower kind (cross-execution-space-call) has no clang group,
        # and turning every warning into an error would fail builds nvcc passed
        return "-Werror" if value in (None, "all-warnings") else ""
    if row.nvcc in ("-Xcompiler", "--compiler-options", "-Xlinker", "--linker-options"):
        # nvcc splits the value at commas, and a quoted value at blanks too (it reaches a shell command line)
        quoted = bool(value) and len(value or "") > 1 and value[0] == value[-1] and value[0] in "\"'"  # type: ignore[index]
        inner = (value or "")[1:-1] if quoted else (value or "")
        parts = [p for p in inner.replace(",", " ").split() if p] if quoted else [p for p in inner.split(",") if p]
        return " ".join(row.hip.replace("{v}", p) for p in parts)
    if row.nvcc == "-x":
        return f"-x {'hip' if value == 'cu' else value}"
    return row.hip.replace("{v}", value or "")


def _keep(row: FlagRow, value: str | None) -> str:
    """A kept option, as written."""
    return row.nvcc if value is None else f"{row.nvcc}={value}" if row.value == "joined" else f"{row.nvcc} {value}"


def _removal(text: str, start: int, end: int) -> Edit:
    """Remove ``text[start:end]`` with the blanks before it (or, at the start of a line, a parenthesis, a quote or
    ``=``, after it): :func:`cuda2rocm.source.edits.word_removal`."""
    from cuda2rocm.source.edits import word_removal

    return Edit(*word_removal(text, start, end, openers="\n(\"'="), "", "nvcc-flag")
