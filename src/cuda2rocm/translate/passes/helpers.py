"""Insert the helper headers of ours that define CUDA device functions HIP lacks (``cuda2rocm_simd.h``, and
``cuda2rocm_warp.h`` for ``__syncwarp`` where the target's HIP lacks it).

A file that calls one of them (``translate/data/helper_functions.csv``) gets the header's text once, after the
last ``#include`` that comes before the first call (or where the runtime include goes), so the translated file
compiles on its own; the calls keep their CUDA names and are reported as C2R-A130 by the identifier pass.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from cuda2rocm.model import Edit
from cuda2rocm.source.tokens import IDENT, NL, PUNCT
from cuda2rocm.translate import data, rules
from cuda2rocm.translate.context import Context
from cuda2rocm.translate.passes.runtime_include import insertion_point


def edits(ctx: Context) -> Iterator[Edit]:
    if not any(p in ctx.text for p in _prefixes()):  # the file calls none of them
        return
    helpers = data.helper_functions()
    tokens = ctx.tokens
    first: dict[str, int] = {}  # header -> index of its first use
    for i, tok in enumerate(tokens):
        if tok.kind == IDENT and not tok.pp and tok.src in helpers and helpers[tok.src] not in first:
            decision = ctx.decide(tok.src)  # HIP may have it in the target release (__syncwarp from ROCm 7.0)
            if decision is not None and decision.rule is rules.HELPER_HEADER:
                first[helpers[tok.src]] = i
    guards = {t.src for t in tokens if t.kind == IDENT and t.pp and t.src.startswith("CUDA2ROCM_")}
    first = {h: i for h, i in first.items() if _guard(h) not in guards}  # already in the file (a second run)
    if not first:
        return
    newline = "\r\n" if "\r\n" in ctx.text[:4096] else "\n"
    for header, index in sorted(first.items(), key=lambda kv: kv[1]):
        at = _after_last_include(ctx, index)
        text = data.helper_header(header).replace("\n", newline)
        yield Edit(at, at, text + newline, f"helpers:{header}")
        ctx.converted[("headers", "helper")] += 1


@functools.lru_cache(maxsize=1)
def _prefixes() -> tuple[str, ...]:
    """What a file calling a helper function contains (``__v`` for the SIMD ones, else the name): a file without
    any is skipped at once."""
    return tuple(sorted({"__v" if name.startswith("__v") else name for name in data.helper_functions()}))


def _guard(header: str) -> str:
    """The include guard of one of our headers: ``cuda2rocm_simd.h`` -> ``CUDA2ROCM_SIMD_H``."""
    return header.upper().replace(".", "_")


_OPENS = frozenset({"if", "ifdef", "ifndef"})


def own_spans(ctx: Context) -> list[tuple[int, int]]:
    """The text spans of our helper headers inserted by an earlier run, ``#ifndef CUDA2ROCM_..._H`` to its
    ``#endif``: a second run leaves them as they are (they name CUDA macros on purpose, for nvcc)."""
    if "CUDA2ROCM_" not in ctx.text:
        return []
    guards = {_guard(h) for h in data.helper_functions().values()}
    tokens = ctx.tokens
    spans: list[tuple[int, int]] = []
    depth = 0
    start = -1
    for i in ctx.positions("#"):
        tok = tokens[i]
        if not (tok.pp and tok.kind == PUNCT) or (i > 0 and tokens[i - 1].pp):
            continue  # the first token of each directive only
        j = ctx.next_code(i)
        word = tokens[j].src if j < len(tokens) else ""
        if word in _OPENS:
            if depth == 0:
                k = ctx.next_code(j)
                guarded = word == "ifndef" and k < len(tokens) and tokens[k].src in guards
                if not guarded:
                    continue
                start = tok.offset
            depth += 1
        elif word == "endif" and depth:
            depth -= 1
            if depth == 0:
                spans.append((start, tokens[j].end))
    return spans


def _after_last_include(ctx: Context, before: int) -> int:
    """The offset after the line of the last ``#include`` among ``tokens[:before]`` (the runtime include's
    place when there is none)."""
    tokens = ctx.tokens
    at = -1
    i = 0
    while i < before:
        tok = tokens[i]
        if tok.kind == PUNCT and tok.src == "#" and tok.pp:
            j = i + 1
            while j < before and tokens[j].kind not in (IDENT, NL):
                j += 1
            if j < before and tokens[j].kind == IDENT and tokens[j].src == "include":
                while j < len(tokens) and tokens[j].kind != NL:
                    j += 1
                if j < len(tokens):
                    at = tokens[j].end
                i = j
        i += 1
    return at if at >= 0 else insertion_point(tokens)
