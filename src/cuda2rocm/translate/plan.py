"""What ``convert`` plans: files by extension, local headers of named files, ``.cu`` -> ``.hip`` outputs.

Walking, de-duplication, symlink and output-directory rules are the shared planner's
(:mod:`cuda2rocm.rewrite.plan`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from cuda2rocm.batch import gc_paused
from cuda2rocm.rewrite.plan import Job, Plan, plan
from cuda2rocm.source.directives import include_operands
from cuda2rocm.source.tokens import STRING, tokenize_kept
from cuda2rocm.translate.io import InputError, read_source
from cuda2rocm.translate.options import Options

__all__ = ["Job", "Plan", "local_includes", "output_name", "plan_convert"]


def local_includes(path: Path, options: Options, seen: set[Path]) -> Iterator[Path]:
    """Quoted includes of ``path`` that resolve to files next to it, recursively (each file once), depth first:
    each header is followed by its own headers before its next sibling. An explicit stack, so a chain of
    headers thousands deep is no recursion."""
    stack = [_quoted_includes(path, options)]
    while stack:
        found = next(stack[-1], None)
        if found is None:
            stack.pop()
        elif found not in seen:
            seen.add(found)
            yield found
            stack.append(_quoted_includes(found, options))


def _quoted_includes(path: Path, options: Options) -> Iterator[Path]:
    """The files ``path``'s quoted includes resolve to next to it (with a convertible extension), in order."""
    try:
        text = read_source(path, options.max_bytes)
    except InputError:
        return
    with gc_paused():
        tokens = tokenize_kept(text)  # translating the file takes them back
    for j in include_operands(tokens):
        if tokens[j].kind != STRING:
            continue
        found = (path.parent / tokens[j].src[1:-1]).resolve()
        if found.is_file() and found.suffix in options.extensions:
            yield found


def output_name(name: str, options: Options) -> str:
    if name.endswith(".cu") and options.cu_suffix:
        return name[: -len(".cu")] + options.cu_suffix
    return name


def plan_convert(paths: Sequence[Path], output: Path | None, options: Options, in_place: bool = False) -> Plan:
    extensions = tuple(options.extensions)
    seen: set[Path] = set()

    def follow(path: Path) -> Iterator[Path]:
        seen.add(path)
        return local_includes(path, options, seen)

    return plan(paths, lambda rel: rel.endswith(extensions), output=output, in_place=in_place,
                rename=lambda name: output_name(name, options),
                follow=follow if options.follow_includes else None, gitignore=options.respect_gitignore)

