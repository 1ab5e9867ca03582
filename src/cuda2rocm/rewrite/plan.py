"""Which files a rewriting command reads, and where each result goes (in place, a mirrored tree, nowhere).

Directories are walked by the scanner's walker (``scan/walk.py``): ``.gitignore`` files are honoured, VCS,
virtual-environment and vendor directories are skipped, and symbolic links are followed only when they stay
inside the tree; links that dangle, loop or leave it are reported as :class:`~cuda2rocm.model.InputProblem`
(naming the link and its target) and never read or written. Every planned source is therefore a real file
inside its input tree, and every output path is relative to the input, never to where a link points.

Planning is linear in the number of files: duplicates (a file reached twice, through two inputs or a
followed include) are found with a set, not a list.

A rewriting command never takes its own output as input: in a walked tree, the workspace's state
(``files.own.STATE_DIRS``: records and artifacts, the pipeline's journal) and the ``<file>.orig`` backups an
in-place run leaves beside the files it rewrote (``files.own.is_backup``: a ``.orig`` file whose original is
beside it) are not walked (the walker leaves them out for every command, scan included), so a second ``--write``
does not migrate ``Dockerfile.orig`` into ``Dockerfile.orig.orig`` and a recorded run does not change what the next
one reads. A file named on the command line is always planned.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

from cuda2rocm.model import InputProblem


class Job:
    """One planned file: ``source`` (the real file read and, in place, rewritten; inside its input tree),
    ``display`` (the path shown in messages: '/' separated, relative to the inputs' common root) and ``dest``
    (where the result goes; ``source`` itself in place; None: computed, not written).

    The paths are kept as strings and made :class:`~pathlib.Path` objects on first use: planning a tree of
    50,000 files makes none (a Path costs more to build than the walker spends on the file).
    """

    __slots__ = ("_dest", "_dest_path", "_source", "_source_path", "display")

    def __init__(self, source: str | Path, display: str, dest: str | Path | None) -> None:
        self._source = str(source)
        self._dest = None if dest is None else str(dest)
        self.display = display
        self._source_path = source if isinstance(source, Path) else None
        self._dest_path = dest if isinstance(dest, Path) else None

    @property
    def source(self) -> Path:
        if self._source_path is None:
            self._source_path = Path(self._source)
        return self._source_path

    @property
    def dest(self) -> Path | None:
        if self._dest is None:
            return None
        if self._dest_path is None:
            self._dest_path = self.source if self._dest == self._source else Path(self._dest)
        return self._dest_path

    @property
    def in_place(self) -> bool:
        return self._dest == self._source

    def _key(self) -> tuple[str, str, str | None]:
        return (self._source, self.display, self._dest)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Job) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Job(source={self._source!r}, display={self.display!r}, dest={self._dest!r})"

    def __reduce__(self) -> tuple[type[Job], tuple[str, str, str | None]]:
        return (Job, self._key())




class Plan(NamedTuple):
    jobs: list[Job]
    problems: list[InputProblem]  # links not followed, unlistable directories


#: ``accept(rel)``: whether a file found in a directory is planned (explicitly named files always are)
Accept = Callable[[str], bool]
#: ``follow(path)``: more files to plan with an explicitly named one (convert: its local headers)
Follow = Callable[[Path], Iterable[Path]]


def plan(paths: Sequence[Path], accept: Accept, *, output: Path | None = None, in_place: bool = False,
         rename: Callable[[str], str] | None = None, follow: Follow | None = None,
         gitignore: bool = True) -> Plan:
    """Plan ``paths`` (files and directories).

    ``in_place``: each result replaces its source. ``output``: a directory mirroring the inputs' common root
    (file names through ``rename``), or, for a single file input and an ``output`` that is not a directory,
    that file's destination (what ``follow`` adds goes where the output's relative includes find it:
    ``src/a/x.cu`` -> ``out/x.hip`` puts its ``"../u.h"`` at ``u.h`` beside ``out/``; a header whose place is
    its own source is not planned, an :class:`InputProblem` says so). Neither: nothing is written. An ``output``
    directory inside an input directory is left out of the input, so a second run does not translate the
    first run's outputs (``convert . -o hip`` then ``--force``).
    """
    single_file_out = output is not None and len(paths) == 1 and paths[0].is_file() and not output.is_dir()
    exclude = None if output is None or in_place or single_file_out else os.path.realpath(output)
    files, roots, problems = _collect(paths, accept, follow, gitignore, exclude)
    if not files:
        return Plan([], problems)
    root = os.path.commonpath(roots)  # every file is inside one of them (_collect)
    cut = len(root) if root.endswith(os.sep) else len(root) + 1
    named = str(paths[0].resolve()) if single_file_out else None
    base = None if output is None else str(output.parent if single_file_out else output)
    # a mirrored file's destination is base/rel: rel is normalised already (cut from a real path), so
    # normpath(join(base, folder, name)) is the normalised base, a separator, folder and name
    mirror = "" if base is None else os.path.normpath(base)
    mirror = "" if mirror == "." else mirror if mirror.endswith(os.sep) else mirror + os.sep
    jobs: list[Job] = []
    for f in files:  # strings, not Paths, until the end: this loop runs once per file of the tree
        rel = f[cut:]
        if in_place:
            dest: str | Path | None = f
        elif output is None or base is None:
            dest = None
        elif f == named:
            dest = output
        else:
            if named is None:
                slash = rel.rfind(os.sep) + 1
                dest = mirror + (rel[:slash] + rename(rel[slash:]) if rename else rel)
            else:  # beside a single output: where the output's `#include "../u.h"` finds it
                folder, name = os.path.split(os.path.relpath(f, os.path.dirname(named)))
                dest = os.path.normpath(os.path.join(base, folder, rename(name) if rename else name))
                if os.path.realpath(dest) == f:
                    problems.append(InputProblem(f, "not translated: its output next to the named file's output "
                                                    "would replace it (use -o DIR or --in-place)"))
                    continue
        jobs.append(Job(f, rel.replace(os.sep, "/") if os.sep != "/" else rel, dest))
    return Plan(jobs, [_relative(p, Path(root)) for p in problems])


def _collect(paths: Sequence[Path], accept: Accept, follow: Follow | None, gitignore: bool,
             exclude: str | None) -> tuple[list[str], list[str], list[InputProblem]]:
    """(real files in order, first occurrence kept; roots: folders every file is inside of; problems with
    absolute paths)."""
    files: dict[str, None] = {}  # insertion-ordered set
    roots: list[str] = []
    problems: list[InputProblem] = []
    for p in paths:
        if p.is_dir():
            from cuda2rocm.files.config import ScanConfig  # here: a single-file run needs no walker (start-up)
            from cuda2rocm.files.walk import walk

            cfg = ScanConfig(respect_gitignore=gitignore)
            top = str(p.resolve())
            roots.append(top)
            skip = exclude if exclude is not None and exclude != top and _inside(exclude, top) else None
            found, walked = walk(Path(top), cfg, accept=lambda rel: "source" if accept(rel) else None)
            problems.extend(InputProblem(os.path.join(top, w.path), w.message, w.line, w.extra) for w in walked)
            inside = top.rstrip(os.sep) + os.sep  # _inside(real, top), once per tree
            for cand in found:
                real = os.path.realpath(cand.abspath) if cand.linked else cand.abspath
                if real != top and not real.startswith(inside):  # the walker follows no link out: never here
                    continue  # pragma: no cover
                if skip is None or not _inside(real, skip):  # the walk leaves out state folders and backups
                    files.setdefault(real, None)
        else:
            named = p.resolve()
            roots.append(str(named.parent))
            files.setdefault(str(named), None)
            for extra in follow(named) if follow is not None else ():
                files.setdefault(str(extra), None)
                roots.append(os.path.dirname(str(extra)))
    return list(files), roots, problems


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _relative(problem: InputProblem, root: Path) -> InputProblem:
    rel = Path(problem.path).relative_to(root).as_posix() if Path(problem.path).is_relative_to(root) else problem.path
    return InputProblem(rel, problem.message, problem.line, problem.extra)
