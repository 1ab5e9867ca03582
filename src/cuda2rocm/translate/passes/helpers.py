"""Insert the helper headers of ours that define CUDA device functions HIP lacks (``cuda2rocm_simd.h``, and
``cuda2rocm_warp.h`` for ``__syncwarp`` where the target's HIP lacks it), and CUDA's math constants where the
target has no ``HIP_*`` counterpart (``cuda2rocm_math_constants.h``, made of the constants the file uses).

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
from cuda2rocm.translate.passes.versions import GUARD as VERSIONS_GUARD


def edits(ctx: Context) -> Iterator[Edit]:
    if not any(p in ctx.text for p in _prefixes()):  # the file calls none of them
        return
    helpers = data.helper_functions()
    tokens = ctx.tokens
    first: dict[str, int] = {}  # header -> index of its first use
    used: list[str] = []  # the math constants the file uses, in order
    for i, tok in enumerate(tokens):
        if tok.kind != IDENT or tok.src not in helpers or (tok.pp and helpers[tok.src] != data.MATH_CONSTANTS_HEADER):
            continue  # constants count in macro bodies too (#define TWO_PI (2 * CUDART_PI_F))
        if tok.src in used or (helpers[tok.src] in first and helpers[tok.src] != data.MATH_CONSTANTS_HEADER):
            continue
        if provided(ctx, tok.src):
            first.setdefault(helpers[tok.src], i)
            if helpers[tok.src] == data.MATH_CONSTANTS_HEADER:
                used.append(tok.src)
    guards = {t.src for t in tokens if t.kind == IDENT and t.pp and t.src.startswith("CUDA2ROCM_")}
    first = {h: i for h, i in first.items() if _guard(h) not in guards}  # already in the file (a second run)
    if not first:
        return
    newline = "\r\n" if "\r\n" in ctx.text[:4096] else "\n"
    for header, index in sorted(first.items(), key=lambda kv: kv[1]):
        at = _after_last_include(ctx, index)
        made = _math_constants(ctx, used) if header == data.MATH_CONSTANTS_HEADER else data.helper_header(header)
        text = made.replace("\n", newline)
        yield Edit(at, at, text + newline, f"helpers:{header}")
        ctx.converted[("headers", "helper")] += 1


def provided(ctx: Context, name: str) -> bool:
    """Whether a header of ours defines ``name`` for this file's target (HIP may have it in the target release:
    ``__syncwarp`` from ROCm 7.0, ``CUDART_PI_F`` as ``HIP_PI_F`` from 5.3)."""
    decision = ctx.decide(name)
    return decision is not None and decision.rule is rules.HELPER_HEADER


def _math_constants(ctx: Context, used: list[str]) -> str:
    """``cuda2rocm_math_constants.h``: the CUDA math constants the file uses, each as its value
    (``math_constants.csv``). Each is defined unless it is already: a header's block and its includer's (other
    constants, maybe) both count. The outer guard is never defined: it marks our block for a second run."""
    values = data.math_constants()
    guard = _guard(data.MATH_CONSTANTS_HEADER)
    lines = [line for name in used for line in (f"#ifndef {name}", f"#define {name} {values[name]}", "#endif")]
    return "\n".join([
        f"// {data.MATH_CONSTANTS_HEADER} - CUDA's math_constants.h values this file uses, for ROCm "
        f"{ctx.settings.target}",
        "// (no HIP_* counterpart there). Written by cuda2rocm: each is the constant rounded to its type.",
        f"#ifndef {guard}", *lines, f"#endif  // {guard}", ""])


@functools.lru_cache(maxsize=1)
def _prefixes() -> tuple[str, ...]:
    """What a file calling a helper function contains (``__v`` for the SIMD ones, ``CUDART_`` for the constants,
    else the name): a file without any is skipped at once."""
    def prefix(name: str) -> str:
        return "__v" if name.startswith("__v") else "CUDART_" if name.startswith("CUDART_") else name
    return tuple(sorted({prefix(name) for name in data.helper_functions()}))


def _guard(header: str) -> str:
    """The include guard of one of our headers: ``cuda2rocm_simd.h`` -> ``CUDA2ROCM_SIMD_H``."""
    return header.upper().replace(".", "_")


_OPENS = frozenset({"if", "ifdef", "ifndef"})


def own_spans(ctx: Context) -> list[tuple[int, int]]:
    """The text spans of our helper headers inserted by an earlier run, ``#ifndef CUDA2ROCM_..._H`` to its
    ``#endif``: a second run leaves them as they are (they name CUDA macros on purpose, for nvcc)."""
    if "CUDA2ROCM_" not in ctx.text:
        return []
    guards = {_guard(h) for h in data.helper_functions().values()} | {VERSIONS_GUARD}
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
