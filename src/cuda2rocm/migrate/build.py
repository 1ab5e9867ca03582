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
from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path, PurePosixPath

from cuda2rocm.files.classify import classify
from cuda2rocm.fsio import InputError, decode, read_limited
from cuda2rocm.migrate import rules as R
from cuda2rocm.migrate.base import CU_SUFFIXES, BuildOptions, FileMigration
from cuda2rocm.migrate.bazel import migrate_bazel, migrate_bazelrc
from cuda2rocm.migrate.cmake import CMakeFacts, migrate_cmake, project_facts
from cuda2rocm.migrate.dual import dual
from cuda2rocm.migrate.engine import MAX_BYTES, MigrationRun, finish, migrate_jobs, planned
from cuda2rocm.migrate.make import migrate_make
from cuda2rocm.migrate.pydeps import KINDS as PYDEPS_KINDS
from cuda2rocm.migrate.pydeps import Includes, follow_includes, migrate_pydeps
from cuda2rocm.migrate.setup_py import migrate_setup_py
from cuda2rocm.project.stack import resolve_targets
from cuda2rocm.rewrite.plan import Job
from cuda2rocm.rewrite.runner import Mode
from cuda2rocm.source.formats.cmake import CMakeFile, read_cmake

#: build-file kinds that migrate build rewrites (scan's classification; ``setup-py``: files named setup.py,
#: which scan classifies as Python)
BUILD_KINDS = ("cmake", "make", "setup-py", "bazel", "bazelrc", *PYDEPS_KINDS)
#: findings that need no one without an edit of their own: an nvcc option translated inside a rewritten
#: generator expression, a CUDAExtension that needs no change
SETTLED = frozenset({R.NVCC_OPTION.id, R.NVCC_ARCH.id, R.SETUP_CUDA_EXTENSION.id})


def renames_in_tree(root: Path, *, twins: bool = False) -> dict[str, str]:
    """``x.cu -> x.hip`` (or ``x.cu.cc``) for every such file whose ``.cu`` twin is absent: what ``convert -o``
    wrote. With ``twins`` (``--dual``: both builds, each with its own sources) also those beside their ``.cu``."""
    out: dict[str, str] = {}
    if root.is_dir():
        for suffix in CU_SUFFIXES:
            for new in root.rglob("*" + suffix):
                old = new.with_name(new.name[:-len(suffix)] + ".cu")
                if twins or not old.exists():
                    out[old.relative_to(root).as_posix()] = new.relative_to(root).as_posix()
    return out


def build_kind(rel: str) -> str | None:
    """The build-file kind of ``rel`` (one of :data:`BUILD_KINDS`), or None."""
    if PurePosixPath(rel).name == "setup.py":
        return "setup-py"
    kind = classify(rel)
    return kind if kind in BUILD_KINDS else None


def is_build_file(rel: str) -> bool:
    return build_kind(rel) is not None


def migrate_file(rel: str, text: str, options: BuildOptions, facts: CMakeFacts | None = None,
                 docs: Mapping[str, CMakeFile] | None = None, kind: str | None = None) -> FileMigration:
    """The migration of one build file, by its kind (``rel`` names it, relative to the project root; ``docs``:
    the listfiles as the project pass read them; ``kind``: for files whose name does not say it, such as a
    requirements file another one includes)."""
    kind = kind or build_kind(rel)
    if kind in PYDEPS_KINDS:
        done = migrate_pydeps(kind, rel, text, options)
    elif kind == "cmake":
        done = migrate_cmake(rel, text, options, facts, (docs or {}).get(rel))
    elif kind == "setup-py":
        done = migrate_setup_py(rel, text, options)
    elif kind == "bazel":
        done = migrate_bazel(rel, text, options)
    elif kind == "bazelrc":
        done = migrate_bazelrc(rel, text, options)
    else:
        done = migrate_make(rel, text, options)
    return dual(done, kind or "", text) if options.dual else done


def _migrate_one(rel: str, text: str, options: BuildOptions, facts: CMakeFacts, docs: Mapping[str, CMakeFile],
                 included: Includes | None = None) -> FileMigration:
    """One planned file: a requirements file named only by another's ``-r``/``-c`` is migrated as one."""
    kind = "requirements" if included and rel in included.extra and build_kind(rel) is None else None
    migration = migrate_file(rel, text, options, facts, docs, kind)
    return included.adjust(migration) if included is not None else migration


def migrate_build(path: str | Path, *, mode: Mode = Mode.DIFF, output: str | Path | None = None,
                  options: BuildOptions | None = None, force: bool = False, backup: bool = True,
                  gitignore: bool = True, workers: int = 1) -> MigrationRun:
    """Migrate the build files under ``path`` (see the module docstring). ``mode``: ``DIFF``/``CHECK``/
    ``DRY_RUN`` write nothing, ``IN_PLACE`` rewrites the files, ``MIRROR`` writes them under ``output``.
    ``options``: targets and style; by default the targets of :func:`resolve_targets` and the renames that
    ``convert`` left in ``output`` (or in ``path`` itself)."""
    started = time.perf_counter()
    root = Path(path)
    out = Path(output) if output is not None else None
    if options is None:
        options = BuildOptions(gfx=resolve_targets(), renames=renames_in_tree(out if out is not None else root))
    jobs, problems = planned(root, is_build_file, mode, out, gitignore)
    included = _included(jobs, root)
    if included.extra:  # requirements files that -r/-c name under other names are migrated as their own files
        jobs, problems = planned(root, lambda rel: is_build_file(rel) or rel in included.extra, mode, out, gitignore)
    docs = listfiles(jobs)
    facts = project_facts(docs.values())
    # workers re-read listfiles: the parse is not worth pickling
    migrate = partial(_migrate_one, options=options, facts=facts, docs=docs if workers <= 1 else {},
                      included=included)
    files = migrate_jobs(jobs, migrate, mode=mode, force=force, backup=backup, workers=workers)
    return finish(root, files, problems, options, mode=mode, output=out, force=force, started=started,
                  settled=SETTLED, review_when_fixed=frozenset({R.NVCC_OPTION_DROPPED.id}))


def _included(jobs: Sequence[Job], root: Path) -> Includes:
    """The requirements files of the plan and what they include (``-r``/``-c``, followed)."""
    base = root.resolve() if root.is_dir() else root.resolve().parent

    def read(rel: str) -> str | None:
        try:
            return decode(read_limited(base / rel, MAX_BYTES), MAX_BYTES)
        except InputError:
            return None

    return follow_includes([job.display for job in jobs if build_kind(job.display) == "requirements"],
                           {job.display for job in jobs}, read)


def listfiles(jobs: Sequence[Job]) -> dict[str, CMakeFile]:
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
