"""What every build-file migrator shares: the options of a run, the per-file result, the data tables."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field

from cuda2rocm.datafiles import packaged_csv
from cuda2rocm.migrate import rules as R
from cuda2rocm.migrate.flags import FlagChange
from cuda2rocm.model import OMIT_NONE, Applicability, Edit, Finding, Fix, Severity
from cuda2rocm.project.stack import DEFAULT_OS, Stack, stack_for
from cuda2rocm.rules import Rule
from cuda2rocm.source.formats._base import Problem
from cuda2rocm.source.tokens import LineIndex

#: CMake build styles (docs/migrate.md): CMake's HIP language, or find_package(hip) + hip::device
STYLES = ("language", "package")
#: what ``convert --cu-suffix`` names translated ``.cu`` files (the renames build files follow): its default, and the
#: C++ name that Bazel's cc rules accept (TensorFlow's ``.cu.cc`` convention)
CU_SUFFIXES = (".hip", ".cu.cc")


@dataclass(frozen=True)
class BuildOptions:
    """``gfx``: the AMD targets to build for; ``renames``: source path -> new path as ``convert`` renamed it
    (paths relative to the project root, '/' separated); ``dual``: keep the CUDA build beside the HIP one behind
    ``GPU_PLATFORM`` (:mod:`cuda2rocm.migrate.dual`); ``rocm``: the target ROCm of Python dependencies
    (``--target-rocm``; empty: the stack's default, the newest ROCm with a PyTorch wheel index)."""

    gfx: tuple[str, ...] = ("gfx90a",)
    style: str = "language"
    renames: dict[str, str] = field(default_factory=dict)
    dual: bool = False
    rocm: str = ""
    decided: Stack | None = field(default=None, compare=False, repr=False, metadata={OMIT_NONE: True})

    @property
    def stack(self) -> Stack:
        """The run's target stack (:mod:`cuda2rocm.project.stack`): ``decided`` (the caller's, with its reasons)
        when it is the stack of these choices."""
        return stack_for(self.gfx, self.rocm, self.decided.os if self.decided else DEFAULT_OS, self.decided)


@dataclass(frozen=True)
class FileMigration:
    """The edits for one build file and the findings about it; ``problems`` when it could not be read (then
    there are no edits and the file stays as it is)."""

    path: str
    edits: tuple[Edit, ...] = ()
    findings: tuple[Finding, ...] = ()
    problems: tuple[Problem, ...] = ()


class Collector:
    """Edits and findings of one file, with line/column of each offset."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self.lines = LineIndex(text)
        self.edits: list[Edit] = []
        self.findings: list[Finding] = []

    def free(self, start: int, end: int) -> bool:
        """No edit touches ``text[start:end]`` yet (insertions at a point count as touching it)."""
        return not any((e.start < end and start < e.end) or (e.start == e.end and start <= e.start <= end)
                       or (start == end and e.start <= start <= e.end) for e in self.edits)

    def edit(self, rule: Rule, start: int, end: int, replacement: str, message: str,
             applicability: Applicability = Applicability.SAFE) -> bool:
        """Add an edit and its finding; an edit overlapping an earlier one is not added (False)."""
        if not self.free(start, end):
            return False
        edit = Edit(start, end, replacement, rule.id)
        self.edits.append(edit)
        self.report(rule, start, message, edit=edit, applicability=applicability)
        return True

    def report(self, rule: Rule, offset: int, message: str, *, fix: str = "", edit: Edit | None = None,
               severity: Severity | None = None, applicability: Applicability = Applicability.SAFE) -> None:
        """A finding at ``offset``; with ``edit`` (already added), its structured fix is that edit (``applicability``:
        how far it can be trusted; safe unless said)."""
        line, col = self.lines.line_col(offset)
        remedy = None
        if edit is not None:
            fix = fix or _describe(self.text[edit.start:edit.end], edit.replacement)
            remedy = Fix(fix, (edit,), applicability)
        self.findings.append(rule.finding(self.path, line, col, message, fix=fix, remedy=remedy, severity=severity))

    def add_edit(self, edit: Edit) -> Edit | None:
        """Add an edit made elsewhere (nvcc options); None when it overlaps one already made."""
        if not self.free(edit.start, edit.end):
            return None
        self.edits.append(edit)
        return edit

    def result(self) -> FileMigration:
        return FileMigration(self.path, tuple(self.edits), tuple(sorted(self.findings, key=Finding.sort_key)))


def report_flags(out: Collector, changes: Iterable[FlagChange], arch_where: str, *, offset: int = 0,
                 apply: bool = True) -> None:
    """One finding per translated nvcc option (C2R-B301..B304), each with its edit as its fix when ``apply``
    (otherwise the caller applies the changes as part of a larger edit). ``offset``: where the words the
    changes were computed on start in the file."""
    for ch in changes:
        edit = out.add_edit(ch.edit) if apply and ch.edit is not None else None
        if apply and ch.edit is not None and edit is None:
            continue  # the text is another edit's already
        fix = f"`{ch.original}` -> `{ch.replacement}`" if ch.replacement else f"removed `{ch.original}`"
        at = offset + ch.offset
        row = ch.row
        if row.action == "arch":
            out.report(R.NVCC_ARCH, at, f"{ch.original}: {arch_where}", fix=fix, edit=edit)
        elif row.action == "keep":
            out.report(R.NVCC_OUTPUT, at, f"{ch.original} makes NVIDIA-only output: {row.note}")
        elif row.action in ("drop", "report"):
            out.report(R.NVCC_OPTION_DROPPED, at, f"{ch.original} is nvcc's" + (f": {row.note}" if row.note else ""),
                       fix=fix, edit=edit, severity=None if row.action == "drop" else Severity[row.severity.upper()])
        else:
            out.report(R.NVCC_OPTION, at, f"{ch.original} is nvcc's spelling" + (f" ({row.note})" if row.note else ""),
                       fix=fix, edit=edit)


def _describe(old: str, new: str) -> str:
    one = " ".join(old.split())
    two = " ".join(new.split())
    return f"`{one}` -> `{two}`" if two else f"removed `{one}`"


def _rows(name: str) -> list[dict[str, str]]:
    return packaged_csv("cuda2rocm.migrate", f"data/{name}")


@dataclass(frozen=True)
class BuildLibrary:
    cuda_target: str
    names: tuple[str, ...]
    legacy: tuple[str, ...]
    library: str
    hip_package: str
    hip_target: str
    hip_link: str
    note: str


@functools.lru_cache(maxsize=1)
def libraries() -> tuple[BuildLibrary, ...]:
    return tuple(
        BuildLibrary(r["cuda_target"], tuple(filter(None, r["names"].split("|"))),
                     tuple(filter(None, r["legacy"].split("|"))), r["library"], r["hip_package"], r["hip_target"],
                     r["hip_link"], r["note"])
        for r in _rows("build_libraries.csv"))


@functools.lru_cache(maxsize=1)
def library_index() -> dict[str, BuildLibrary]:
    """Every spelling (``CUDA::cublas``, ``cublas``, ``CUDA_CUBLAS_LIBRARIES``) -> its row."""
    out: dict[str, BuildLibrary] = {}
    for lib in libraries():
        for key in (lib.cuda_target, *lib.names, *lib.legacy):
            if key:
                out.setdefault(key, lib)
    return out
