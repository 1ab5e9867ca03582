"""What every build-file migrator shares: the options of a run, the per-file result, the data tables."""

from __future__ import annotations

import csv
import functools
import io
from dataclasses import dataclass, field
from importlib import resources

from cuda2rocm.model import Edit, Finding
from cuda2rocm.rules import Rule
from cuda2rocm.source.formats._base import Problem
from cuda2rocm.source.tokens import LineIndex

#: CMake build styles (docs/migrate.md): CMake's HIP language, or find_package(hip) + hip::device
STYLES = ("language", "package")


@dataclass(frozen=True)
class BuildOptions:
    """``gfx``: the AMD targets to build for; ``renames``: source path -> new path as ``convert`` renamed it
    (paths relative to the project root, '/' separated)."""

    gfx: tuple[str, ...] = ("gfx90a",)
    style: str = "language"
    renames: dict[str, str] = field(default_factory=dict)


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

    def edit(self, rule: Rule, start: int, end: int, replacement: str, message: str) -> bool:
        """Add an edit and its finding; an edit overlapping an earlier one is not added (False)."""
        if not self.free(start, end):
            return False
        self.edits.append(Edit(start, end, replacement, rule.id))
        self.report(rule, start, message, fix=_describe(self.text[start:end], replacement))
        return True

    def report(self, rule: Rule, offset: int, message: str, *, fix: str = "") -> None:
        line, col = self.lines.line_col(offset)
        self.findings.append(rule.finding(self.path, line, col, message, fix=fix))

    def result(self) -> FileMigration:
        return FileMigration(self.path, tuple(self.edits), tuple(sorted(self.findings, key=Finding.sort_key)))


def _describe(old: str, new: str) -> str:
    one = " ".join(old.split())
    two = " ".join(new.split())
    return f"`{one}` -> `{two}`" if two else f"removed `{one}`"


def _rows(name: str) -> list[dict[str, str]]:
    text = resources.files("cuda2rocm.migrate").joinpath("data").joinpath(name).read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    return list(csv.DictReader(io.StringIO("\n".join(lines))))


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


@dataclass(frozen=True)
class CMakeVariable:
    cuda: str
    kind: str
    language: str
    package: str
    note: str

    def hip(self, style: str) -> str:
        return self.language if style == "language" else self.package


@functools.lru_cache(maxsize=1)
def cmake_variables() -> dict[str, CMakeVariable]:
    return {r["cuda"]: CMakeVariable(**r) for r in _rows("cmake_variables.csv")}
