"""Which files to translate and where each output goes (mirrored tree, ``.cu`` -> ``.hip``, in place)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from cuda2rocm.source.tokens import STRING, tokenize
from cuda2rocm.translate.io import InputError, read_source
from cuda2rocm.translate.options import Options
from cuda2rocm.translate.passes.includes import include_operands

_SKIP_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__", "node_modules", ".tox", ".venv"})


@dataclass(frozen=True)
class Job:
    source: Path
    display: str  # path shown in messages ('/' separated, relative to the input root)
    dest: Path | None  # None: translate without writing


def walk(root: Path, extensions: Sequence[str]) -> Iterator[Path]:
    """Files under ``root`` with a matching extension; symlinked directories are not followed (no loops)."""
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS)
        for name in sorted(filenames):
            if name.endswith(tuple(extensions)):
                yield Path(dirpath, name)


def local_includes(path: Path, options: Options, seen: set[Path]) -> Iterator[Path]:
    """Quoted includes of ``path`` that resolve to files next to it, recursively (each file once)."""
    try:
        text = read_source(path, options.max_bytes)
    except InputError:
        return
    tokens = tokenize(text)
    for j in include_operands(tokens):
        if tokens[j].kind != STRING:
            continue
        found = (path.parent / tokens[j].src[1:-1]).resolve()
        if found.is_file() and found.suffix in options.extensions and found not in seen:
            seen.add(found)
            yield found
            yield from local_includes(found, options, seen)


def sources(paths: Iterable[Path], options: Options) -> tuple[list[Path], list[Path]]:
    """(files to translate, roots they are relative to); directories are walked, files' headers followed."""
    files: list[Path] = []
    roots: list[Path] = []
    seen: set[Path] = set()
    for p in paths:
        if p.is_dir():
            roots.append(p.resolve())
            new = [f.resolve() for f in walk(p, options.extensions)]
        else:
            roots.append(p.resolve().parent)
            new = [p.resolve()]
            if options.follow_includes:
                seen.add(p.resolve())
                new.extend(local_includes(p.resolve(), options, seen))
        files.extend(f for f in new if f not in files)
    return files, roots


def output_name(path: Path, options: Options) -> str:
    if path.suffix == ".cu" and options.cu_suffix:
        return path.stem + options.cu_suffix
    return path.name


def jobs(paths: Sequence[Path], output: Path | None, options: Options, in_place: bool = False) -> list[Job]:
    files, roots = sources(paths, options)
    if not files:
        return []
    root = Path(os.path.commonpath([*roots, *(f.parent for f in files)]))
    single_file_out = output is not None and len(paths) == 1 and paths[0].is_file() and not output.is_dir()
    out: list[Job] = []
    for f in files:
        rel = f.relative_to(root)
        if in_place:
            dest: Path | None = f
        elif output is None:
            dest = None
        elif single_file_out and f == paths[0].resolve():
            dest = output
        else:
            base = output.parent if single_file_out else output
            dest = base / rel.parent / output_name(f, options)
        out.append(Job(f, rel.as_posix(), dest))
    return out
