"""Insert the helper headers of ours that define CUDA device functions HIP lacks (``cuda2rocm_simd.h``).

A file that calls one of them (``translate/data/helper_functions.csv``) gets the header's text once, after the
last ``#include`` that comes before the first call (or where the runtime include goes), so the translated file
compiles on its own; the calls keep their CUDA names and are reported as C2R-A130 by the identifier pass.
"""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.model import Edit
from cuda2rocm.source.tokens import IDENT, NL, PUNCT
from cuda2rocm.translate import data
from cuda2rocm.translate.context import Context
from cuda2rocm.translate.passes.runtime_include import insertion_point


def edits(ctx: Context) -> Iterator[Edit]:
    if "__v" not in ctx.text:  # every helper function is a __v... SIMD intrinsic
        return
    helpers = data.helper_functions()
    tokens = ctx.tokens
    first: dict[str, int] = {}  # header -> index of its first use
    for i, tok in enumerate(tokens):
        if tok.kind == IDENT and not tok.pp and tok.src in helpers and helpers[tok.src] not in first \
                and ctx.decide(tok.src) is not None:
            first[helpers[tok.src]] = i
    if not first or any(t.kind == IDENT and t.pp and t.src == "CUDA2ROCM_SIMD_H" for t in tokens):
        return  # nothing to define, or the header is already in the file (a second run)
    newline = "\r\n" if "\r\n" in ctx.text[:4096] else "\n"
    for header, index in sorted(first.items(), key=lambda kv: kv[1]):
        at = _after_last_include(ctx, index)
        text = data.helper_header(header).replace("\n", newline)
        yield Edit(at, at, text + newline, f"helpers:{header}")
        ctx.converted[("headers", "helper")] += 1


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
