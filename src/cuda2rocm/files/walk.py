"""The file walker: gitignore-aware, include/exclude globs, skips VCS/venv/vendor dirs, symlink-loop safe.

Only files the scanner classifies are returned; everything else is never opened.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cuda2rocm.files import inputs as rules
from cuda2rocm.files.classify import classify
from cuda2rocm.files.config import ScanConfig
from cuda2rocm.files.own import STATE_DIRS, is_backup
from cuda2rocm.model import InputProblem

if TYPE_CHECKING:
    import pathspec

SKIP_DIRS = frozenset({".git", ".hg", ".svn", "node_modules", "__pycache__", ".tox", ".nox", ".mypy_cache",
                       ".pytest_cache", ".ruff_cache", ".eggs", ".venv", "venv", ".idea", ".vscode",
                       "site-packages", ".hypothesis"})


@dataclass(frozen=True)
class Candidate:
    abspath: str
    rel: str  # '/'-separated, relative to the scan root
    language: str
    size: int
    linked: bool = False  # reached through a symbolic link (the file's or a directory's): abspath is not real


@dataclass
class _Ignores:
    base: str  # rel dir the patterns apply to ('' = root)
    spec: pathspec.GitIgnoreSpec


def _spec(lines: Iterable[str]) -> pathspec.GitIgnoreSpec:
    """Gitignore-style patterns; pathspec (~0.1 s to import) is loaded only when a walk has some."""
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines(lines)


#: ``accept(rel)`` of :func:`walk`: the language of a file to return, or None to leave it unopened
Accept = Callable[[str], "str | None"]


def walk(
    root: Path, cfg: ScanConfig, extra_exclude: tuple[str, ...] = (), accept: Accept | None = None
) -> tuple[list[Candidate], list[InputProblem]]:
    """Every classified file under ``root`` (or ``root`` itself when it is a file), plus walk problems.

    ``accept`` replaces the scanner's classification (``convert`` picks files by extension); files it
    accepts are not peeked at for ELF headers.
    """
    problems: list[InputProblem] = []
    if root.is_file():
        cand = _candidate(str(root), root.name, problems, accept)
        return ([cand] if cand else []), problems
    select = _Selector(cfg, extra_exclude)
    found = [c for c in _walk_dir(root, select, problems, accept) if select.wanted(c.rel)]
    found.sort(key=lambda c: c.rel)
    return found, problems


class _Selector:
    def __init__(self, cfg: ScanConfig, extra_exclude: tuple[str, ...]) -> None:
        self.include = _spec(cfg.include) if cfg.include else None
        patterns = (*cfg.exclude, *extra_exclude)
        self.exclude = _spec(patterns) if patterns else None
        self.gitignore = cfg.respect_gitignore

    def wanted(self, rel: str) -> bool:
        if self.exclude is not None and self.exclude.match_file(rel):
            return False
        return self.include is None or self.include.match_file(rel)

    def excluded_dir(self, rel: str) -> bool:
        return self.exclude is not None and self.exclude.match_file(rel + "/")


def _walk_dir(root: Path, select: _Selector, problems: list[InputProblem],
              accept: Accept | None = None) -> Iterator[Candidate]:
    real_root = os.path.realpath(root)
    root_stat = os.stat(real_root)
    seen_dirs = {(root_stat.st_dev, root_stat.st_ino)}
    stack: list[tuple[str, str, list[_Ignores], bool]] = [(real_root, "", [], False)]
    while stack:
        absdir, reldir, ignores, linked = stack.pop()
        ignores = _with_gitignore(absdir, reldir, ignores, select.gitignore)
        for entry in _list(absdir, reldir, problems):
            rel = f"{reldir}/{entry.name}" if reldir else entry.name
            if _ignored(rel, entry, ignores):
                continue
            kind = _entry_kind(entry, rel, real_root, seen_dirs, problems)
            if kind == "dir" and entry.name not in SKIP_DIRS and entry.name not in STATE_DIRS \
                    and not select.excluded_dir(rel):
                if not os.path.isfile(os.path.join(entry.path, "pyvenv.cfg")):
                    stack.append((entry.path, rel, ignores, linked or entry.is_symlink()))
            elif kind == "file" and not is_backup(entry.path):
                cand = _candidate(entry.path, rel, problems, accept, linked or entry.is_symlink())
                if cand:
                    yield cand


def _list(absdir: str, reldir: str, problems: list[InputProblem]) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(absdir) as it:
            return sorted(it, key=lambda e: e.name)
    except OSError as exc:
        problems.append(InputProblem(reldir or ".", f"cannot list directory: {exc.strerror or exc}",
                                     extra={"rule": rules.E101.id}))
        return []


def _entry_kind(entry: os.DirEntry[str], rel: str, real_root: str, seen: set[tuple[int, int]],
                problems: list[InputProblem]) -> str:
    """'dir', 'file' or 'skip'; symlinks are followed only inside the tree and never twice."""
    if entry.is_file(follow_symlinks=False):  # a plain file (no system call): its size is read if it is wanted
        return "file"
    try:
        st = entry.stat(follow_symlinks=True)
    except OSError as exc:
        what = "symlink loop" if exc.errno == 40 else f"broken symlink ({exc.strerror})"
        if entry.is_symlink():
            problems.append(InputProblem(rel, f"{what} to {_link_target(entry.path)}; not followed",
                                         extra={"rule": rules.E106.id}))
        else:
            problems.append(InputProblem(rel, f"cannot stat: {exc.strerror}", extra={"rule": rules.E101.id}))
        return "skip"
    is_dir = entry.is_dir(follow_symlinks=True)
    if entry.is_symlink():
        target = os.path.realpath(entry.path)
        if os.path.commonpath([target, real_root]) != real_root:
            problems.append(InputProblem(rel, f"symlink points outside the scanned tree ({target}); not followed",
                                         extra={"rule": rules.E106.id}))
            return "skip"
    if is_dir:
        key = (st.st_dev, st.st_ino)
        if key in seen:
            if entry.is_symlink():
                problems.append(InputProblem(rel, "symlink cycle (directory already scanned); not followed",
                                             extra={"rule": rules.E106.id}))
            return "skip"
        seen.add(key)
        return "dir"
    return "file" if entry.is_file(follow_symlinks=True) else "skip"


def _link_target(path: str) -> str:
    try:
        return os.readlink(path)
    except OSError:  # pragma: no cover - the link vanished meanwhile
        return "?"


def _candidate(abspath: str, rel: str, problems: list[InputProblem], accept: Accept | None = None,
               linked: bool = False) -> Candidate | None:
    if accept is not None:
        language = accept(rel)
    else:
        language = classify(rel)
        if language is None:
            language = _maybe_elf(abspath)
    if language is None:
        return None
    try:
        size = os.stat(abspath).st_size
    except OSError as exc:
        problems.append(InputProblem(rel, f"cannot stat: {exc.strerror}", extra={"rule": rules.E101.id}))
        return None
    return Candidate(abspath, rel, language, size, linked)


def _maybe_elf(abspath: str) -> str | None:
    """Extension-less executables may be ELF binaries; peek at 4 bytes only when the exec bit is set."""
    if "." in os.path.basename(abspath) or not os.access(abspath, os.X_OK):
        return None
    try:
        with open(abspath, "rb") as f:
            return "binary" if f.read(4) == b"\x7fELF" else None
    except OSError:
        return None


def _with_gitignore(absdir: str, reldir: str, ignores: list[_Ignores], enabled: bool) -> list[_Ignores]:
    path = os.path.join(absdir, ".gitignore")
    if not enabled or not os.path.isfile(path):
        return ignores
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            spec = _spec(f.read().splitlines())
    except OSError:
        return ignores
    return [*ignores, _Ignores(reldir, spec)]


def _ignored(rel: str, entry: os.DirEntry[str], ignores: list[_Ignores]) -> bool:
    if not ignores:
        return False
    is_dir = entry.is_dir(follow_symlinks=False)
    for ig in ignores:
        sub = rel[len(ig.base) + 1:] if ig.base else rel
        if ig.spec.match_file(sub + "/" if is_dir else sub):
            return True
    return False
