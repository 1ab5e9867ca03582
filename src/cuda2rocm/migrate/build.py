"""``migrate build``: every build file of a project, read once, rewritten as minimal edits by the shared runner.

:func:`migrate_build` plans the tree with the rewrite runner's planner (``.gitignore`` respected, links that
leave the tree reported, an output directory inside the input left out), reads every listfile once for the
project-wide facts the CMake migrator needs, then hands each build file to the runner with the migrator as the
transform: unified diffs by default, atomic in-place writes with ``.orig`` backups, or a migrated copy of the
build files in another directory; a file that cannot be read or parsed is reported with its line and left
byte-identical, and the others are still migrated.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path, PurePosixPath

from cuda2rocm.fsio import InputError, decode, read_limited
from cuda2rocm.hazards.targets import UnknownTarget, resolve
from cuda2rocm.migrate import rules as R
from cuda2rocm.migrate.base import BuildOptions, FileMigration
from cuda2rocm.migrate.cmake import CMakeFacts, migrate_cmake, project_facts
from cuda2rocm.migrate.make import migrate_make
from cuda2rocm.migrate.pydeps import KINDS as PYDEPS_KINDS
from cuda2rocm.migrate.pydeps import Includes, follow_includes, migrate_pydeps
from cuda2rocm.migrate.setup_py import migrate_setup_py
from cuda2rocm.model import Finding, InputProblem, Severity
from cuda2rocm.rewrite.plan import Job, Plan, plan
from cuda2rocm.rewrite.runner import FileOutcome, Mode, Rewrite, prepare, rewrite_file, run_all
from cuda2rocm.scan.classify import classify
from cuda2rocm.source.edits import apply_edits
from cuda2rocm.source.formats._base import Problem
from cuda2rocm.source.formats.cmake import CMakeFile, read_cmake

#: build-file kinds that migrate build rewrites (scan's classification; ``setup-py``: files named setup.py,
#: which scan classifies as Python)
BUILD_KINDS = ("cmake", "make", "setup-py", *PYDEPS_KINDS)
MAX_BYTES = 32 * 2**20


class TargetError(ValueError):
    """An unknown GPU or architecture name (a usage error)."""


def resolve_targets(offload_arch: str = "", target_gpu: str = "") -> tuple[str, ...]:
    """The gfx targets from ``--offload-arch gfx942,gfx90a`` or ``--target-gpu MI300X,MI250X`` (knowledge base)."""
    if offload_arch:
        archs = tuple(a.strip() for a in offload_arch.split(",") if a.strip())
        bad = [a for a in archs if not a.startswith("gfx")]
        if bad or not archs:
            raise TargetError(f"not an AMD GPU architecture: {', '.join(bad) or offload_arch!r} (expected gfx names "
                              "such as gfx942)")
        return archs
    if target_gpu:
        out = []
        for name in (n.strip() for n in target_gpu.split(",") if n.strip()):
            try:  # the one resolution of a target GPU name, as scan --target-gpu uses
                out.append(resolve(name).gfx)
            except UnknownTarget as exc:
                raise TargetError(str(exc)) from None
        return tuple(dict.fromkeys(out))
    return ("gfx90a", "gfx942")


def renames_in_tree(root: Path) -> dict[str, str]:
    """``x.cu -> x.hip`` for every ``.hip`` file whose ``.cu`` twin is absent: what ``convert -o`` wrote."""
    out: dict[str, str] = {}
    if root.is_dir():
        for hip in root.rglob("*.hip"):
            if not hip.with_suffix(".cu").exists():
                out[hip.with_suffix(".cu").relative_to(root).as_posix()] = hip.relative_to(root).as_posix()
    return out


def build_kind(rel: str) -> str | None:
    """The build-file kind of ``rel`` (one of :data:`BUILD_KINDS`), or None."""
    if PurePosixPath(rel).name == "setup.py":
        return "setup-py"
    kind = classify(rel)
    return kind if kind in BUILD_KINDS else None


def is_build_file(rel: str) -> bool:
    return build_kind(rel) is not None


@dataclass(frozen=True)
class BuildRun:
    files: tuple[FileOutcome[FileMigration], ...]
    problems: tuple[InputProblem, ...]  # from planning: links not followed, unlistable directories
    options: BuildOptions
    seconds: float = 0.0

    @property
    def findings(self) -> list[Finding]:
        return [f for o in self.files for f in o.detail.findings]

    @property
    def changed(self) -> list[FileOutcome[FileMigration]]:
        return [o for o in self.files if o.changed]

    @property
    def failed(self) -> list[FileOutcome[FileMigration]]:
        return [o for o in self.files if o.detail.problems or o.write_error]

    @property
    def for_review(self) -> list[Finding]:
        """What a person must still decide: findings with no edit of their own (an nvcc option translated inside
        a rewritten generator expression does not count, nor does a CUDAExtension that needs no change), and options
        removed that changed code generation."""
        translated = (R.NVCC_OPTION.id, R.NVCC_ARCH.id, R.SETUP_CUDA_EXTENSION.id)
        return [f for f in self.findings if (f.remedy is None and f.rule not in translated)
                or (f.rule == R.NVCC_OPTION_DROPPED.id and f.severity >= Severity.MEDIUM)]

    def exit_code(self, fail_on: Severity = Severity.HIGH) -> int:
        if self.problems or self.failed:
            return 2
        return 1 if any(f.severity >= fail_on for f in self.findings) else 0


def migrate_file(rel: str, text: str, options: BuildOptions, facts: CMakeFacts | None = None,
                 doc: CMakeFile | None = None, kind: str | None = None) -> FileMigration:
    """The migration of one build file, by its kind (``rel`` names it, relative to the project root; ``doc``:
    the listfile as the project pass read it; ``kind``: for files whose name does not say it, such as a
    requirements file another one includes)."""
    kind = kind or build_kind(rel)
    if kind in PYDEPS_KINDS:
        return migrate_pydeps(kind, rel, text, options)
    if kind == "cmake":
        return migrate_cmake(rel, text, options, facts, doc)
    if kind == "setup-py":
        return migrate_setup_py(rel, text, options)
    return migrate_make(rel, text, options)


def _transform(job: Job, text: str, options: BuildOptions, facts: CMakeFacts,
               docs: dict[str, CMakeFile], included: Includes | None = None) -> Rewrite[FileMigration]:
    kind = "requirements" if included and job.display in included.extra and build_kind(job.display) is None else None
    migration = migrate_file(job.display, text, options, facts, docs.get(job.display), kind)
    if included is not None:
        migration = included.adjust(migration)
    if migration.problems:
        return Rewrite(migration, None, failed=True)
    new = apply_edits(text, migration.edits)
    return Rewrite(migration, new if new != text else None)


def _unreadable(job: Job, exc: InputError) -> FileMigration:
    return FileMigration(job.display, problems=(Problem(exc.line, exc.message),))


def migrate_build(path: str | Path, *, mode: Mode = Mode.DIFF, output: str | Path | None = None,
                  options: BuildOptions | None = None, force: bool = False, backup: bool = True,
                  gitignore: bool = True, workers: int = 1) -> BuildRun:
    """Migrate the build files under ``path`` (see the module docstring). ``mode``: ``DIFF``/``CHECK``/
    ``DRY_RUN`` write nothing, ``IN_PLACE`` rewrites the files, ``MIRROR`` writes them under ``output``.
    ``options``: targets and style; by default the targets of :func:`resolve_targets` and the renames that
    ``convert`` left in ``output`` (or in ``path`` itself)."""
    started = time.perf_counter()
    root = Path(path)
    out = Path(output) if output is not None else None
    if mode is Mode.MIRROR and out is None:
        raise ValueError("Mode.MIRROR needs an output directory")
    if options is None:
        options = BuildOptions(gfx=resolve_targets(), renames=renames_in_tree(out if out is not None else root))
    def planned_with(accept: Callable[[str], bool]) -> Plan:
        return plan([root], accept, output=out if mode in (Mode.MIRROR, Mode.DRY_RUN) else None,
                    in_place=mode is Mode.IN_PLACE, gitignore=gitignore)

    planned = planned_with(is_build_file)
    included = _included(planned.jobs, root)
    if included.extra:  # requirements files that -r/-c name under other names are migrated as their own files
        planned = planned_with(lambda rel: is_build_file(rel) or rel in included.extra)
    docs = _listfiles(planned.jobs)
    facts = project_facts(docs.values())
    policy = mode.policy(force=force, backup=backup)
    prepare(planned.jobs, policy)
    work = partial(rewrite_file, transform=partial(_transform, options=options, facts=facts,
                                                        docs=docs if workers <= 1 else {}, included=included),
                   unreadable=_unreadable, policy=policy, max_bytes=MAX_BYTES)
    files = run_all(planned.jobs, work, workers)  # workers re-read listfiles: the parse is not worth pickling
    return BuildRun(tuple(files), tuple(planned.problems), options, time.perf_counter() - started)


def _included(jobs: list[Job], root: Path) -> Includes:
    """The requirements files of the plan and what they include (``-r``/``-c``, followed)."""
    base = root.resolve() if root.is_dir() else root.resolve().parent

    def read(rel: str) -> str | None:
        try:
            return decode(read_limited(base / rel, MAX_BYTES), MAX_BYTES)
        except InputError:
            return None

    return follow_includes([job.display for job in jobs if build_kind(job.display) == "requirements"],
                           {job.display for job in jobs}, read)


def _listfiles(jobs: list[Job]) -> dict[str, CMakeFile]:
    """Every readable, well-formed CMake listfile of the plan, read (for the project-wide facts)."""
    docs: dict[str, CMakeFile] = {}
    for job in jobs:
        if classify(job.display) != "cmake":
            continue
        try:
            doc = read_cmake(decode(read_limited(job.source, MAX_BYTES), MAX_BYTES))
        except InputError:
            continue
        if not doc.problems:
            docs[job.display] = doc
    return docs
