"""``migrate build``: every build file of a project, read once, rewritten as minimal edits.

:func:`plan_build` walks the tree with the scanner's walker (``.gitignore`` respected; the same file kinds scan
classifies), reads each build file, gathers the project-wide facts the CMake migrator needs, and returns one
:class:`~cuda2rocm.migrate.base.FileMigration` per file: the edits, the findings, or the problems of a file that
could not be read (left untouched; the others are still migrated).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from cuda2rocm import knowledge
from cuda2rocm.migrate.base import BuildOptions, FileMigration
from cuda2rocm.migrate.cmake import migrate_cmake, project_facts
from cuda2rocm.migrate.make import migrate_make
from cuda2rocm.model import Finding, InputProblem, Severity
from cuda2rocm.scan.config import ScanConfig
from cuda2rocm.scan.walk import walk
from cuda2rocm.source.edits import apply_edits
from cuda2rocm.source.formats.cmake import read_cmake

#: build-file kinds (scan's classification) -> the migrator for them
BUILD_KINDS = ("cmake", "make")


class TargetError(ValueError):
    """An unknown GPU or architecture name (a usage error)."""


def resolve_targets(offload_arch: str = "", target_gpu: str = "") -> tuple[str, ...]:
    """The gfx targets from ``--offload-arch gfx942,gfx90a`` or ``--target-gpu MI300X,MI250X`` (knowledge base)."""
    if offload_arch:
        archs = tuple(a.strip() for a in offload_arch.split(",") if a.strip())
        bad = [a for a in archs if not a.startswith("gfx")]
        if bad:
            raise TargetError(f"not an AMD GPU architecture: {', '.join(bad)} (expected gfx names such as gfx942)")
        return archs
    if target_gpu:
        out = []
        for name in (n.strip() for n in target_gpu.split(",") if n.strip()):
            gpu = knowledge.get_gpu(name)
            if gpu is None or gpu.vendor != "amd":
                known = ", ".join(sorted(n for n, g in knowledge.gpus().items() if g.vendor == "amd"))
                raise TargetError(f"unknown AMD GPU {name!r}; known: {known}")
            out.append(gpu.target)
        return tuple(dict.fromkeys(out))
    return ("gfx90a", "gfx942")


@dataclass(frozen=True)
class BuildPlan:
    root: str
    options: BuildOptions
    files: tuple[FileMigration, ...]
    texts: dict[str, str] = field(default_factory=dict, repr=False, compare=False)  # rel path -> text read
    problems: tuple[InputProblem, ...] = ()
    seconds: float = 0.0

    @property
    def findings(self) -> list[Finding]:
        return [f for m in self.files for f in m.findings]

    @property
    def changed(self) -> list[FileMigration]:
        return [m for m in self.files if m.edits]

    def new_text(self, rel: str) -> str:
        migration = next(m for m in self.files if m.path == rel)
        return apply_edits(self.texts[rel], migration.edits)

    def exit_code(self, fail_on: Severity = Severity.HIGH) -> int:
        if self.problems or any(m.problems for m in self.files):
            return 2
        return 1 if any(f.severity >= fail_on for f in self.findings) else 0


def renames_in_tree(root: Path) -> dict[str, str]:
    """``x.cu -> x.hip`` for every ``.hip`` file whose ``.cu`` twin is absent: what ``convert -o`` wrote."""
    out: dict[str, str] = {}
    if root.is_dir():
        for hip in root.rglob("*.hip"):
            cu = hip.with_suffix(".cu")
            if not cu.exists():
                out[cu.relative_to(root).as_posix()] = hip.relative_to(root).as_posix()
    return out


def read_build_file(abspath: str, rel: str, max_bytes: int) -> tuple[str, InputProblem | None]:
    """The file's text, exactly as its bytes decode; a file that is not UTF-8 is left alone (a problem), since
    rewriting it through replacement characters would change bytes nobody asked to change."""
    try:
        with open(abspath, "rb") as f:
            data = f.read(max_bytes + 1)
    except OSError as exc:
        return "", InputProblem(rel, f"cannot read file: {exc.strerror or exc}", 0, {"rule": "C2R-E101"})
    if len(data) > max_bytes:
        return "", InputProblem(rel, f"file is above the {max_bytes / 2**20:.0f} MB limit; left as it is", 0,
                                {"rule": "C2R-E104"})
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return "", InputProblem(rel, f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at line {line}); left as it is",
                                line, {"rule": "C2R-E103"})


def plan_build(path: str | Path, options: BuildOptions | None = None, *, config: ScanConfig | None = None) -> BuildPlan:
    """Read every build file under ``path`` and compute its migration (nothing is written)."""
    started = time.perf_counter()
    root = Path(path)
    if options is None:
        options = BuildOptions(renames=renames_in_tree(root))
    candidates, problems = walk(root, config or ScanConfig())
    texts: dict[str, str] = {}
    kinds: dict[str, str] = {}
    for cand in candidates:
        if cand.language not in BUILD_KINDS:
            continue
        text, problem = read_build_file(cand.abspath, cand.rel, (config or ScanConfig()).max_file_bytes)
        if problem is not None:
            problems.append(problem)
            continue
        texts[cand.rel] = text
        kinds[cand.rel] = cand.language
    cmake_docs = {rel: read_cmake(t) for rel, t in texts.items() if kinds[rel] == "cmake"}
    facts = project_facts(d for d in cmake_docs.values() if not d.problems)
    files = []
    for rel, text in texts.items():
        if kinds[rel] == "cmake":
            files.append(migrate_cmake(rel, text, options, facts, cmake_docs[rel]))
        else:
            files.append(migrate_make(rel, text, options))
    return BuildPlan(str(root), options, tuple(files), texts, tuple(problems), time.perf_counter() - started)
