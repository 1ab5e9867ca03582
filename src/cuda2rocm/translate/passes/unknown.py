"""Report CUDA-looking identifiers that the tables do not know and the project does not define.

A name counts as the project's when the file declares it, or a local header it includes (``#include "x.cuh"``,
resolved next to the including file, transitively) does: ``CUDA_CHECK`` from the project's ``common.cuh`` is
the project's macro, not an unknown CUDA API. Which names look like CUDA's is :func:`looks_cuda`
(:mod:`cuda2rocm.mapping.classify`, the same answer scan uses).
"""

from __future__ import annotations

import functools
from pathlib import Path

from cuda2rocm.mapping.classify import looks_cuda
from cuda2rocm.source.declared import defined_names, is_defined
from cuda2rocm.source.directives import include_operands
from cuda2rocm.source.tokens import STRING, Token, tokenize
from cuda2rocm.translate import rules
from cuda2rocm.translate.context import Context
from cuda2rocm.translate.io import InputError, read_source


def check(ctx: Context, i: int) -> None:
    name = ctx.tokens[i].src
    if not looks_cuda(name):
        return
    defined = ctx.defined.get(name)
    if defined is None:
        defined = ctx.defined[name] = is_defined(ctx.tokens, name, ctx.positions(name)) or name in _header_names(ctx)
    if not defined:
        ctx.report(rules.UNKNOWN, ctx.tokens[i].offset, f"{name} looks like a CUDA identifier but is not in "
                   "the mapping tables; left unchanged")


def _header_names(ctx: Context) -> frozenset[str]:
    """Names declared by the local headers ``ctx.source`` includes, transitively (empty without a source)."""
    if ctx.source is None:
        return frozenset()
    if ctx.header_names is None:  # once per file, on its first unknown CUDA-looking name
        ctx.header_names = local_header_names(ctx.source, ctx.tokens, ctx.options.max_bytes)
    return ctx.header_names


def local_header_names(path: Path, tokens: list[Token], max_bytes: int) -> frozenset[str]:
    """Names declared by the quoted includes of ``path`` that exist next to it, and by theirs (each file once).

    Headers that cannot be read (missing, binary, too large) are skipped: converting them reports that.
    """
    names: set[str] = set()
    seen = {path.resolve()}
    todo = [(path.parent, _quoted_includes(tokens))]
    while todo:
        folder, includes = todo.pop()
        for include in includes:
            found = (folder / include).resolve()
            if found in seen:
                continue
            seen.add(found)
            header = _header(found, max_bytes)
            if header is not None:
                names |= header[0]
                todo.append((found.parent, header[1]))
    return frozenset(names)


def _quoted_includes(tokens: list[Token]) -> tuple[str, ...]:
    return tuple(tokens[j].src[1:-1] for j in include_operands(tokens) if tokens[j].kind == STRING)


def _header(path: Path, max_bytes: int) -> tuple[frozenset[str], tuple[str, ...]] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    if not path.is_file() or stat.st_size > max_bytes:
        return None
    return _header_at(path, stat.st_mtime_ns, stat.st_size, max_bytes)


@functools.lru_cache(maxsize=512)
def _header_at(path: Path, mtime_ns: int, size: int, max_bytes: int) -> tuple[frozenset[str], tuple[str, ...]] | None:
    """(declared names, quoted includes) of a header; cached per process by path, mtime and size."""
    try:
        text = read_source(path, max_bytes)
    except InputError:
        return None
    tokens = tokenize(text)
    return defined_names(tokens), _quoted_includes(tokens)
