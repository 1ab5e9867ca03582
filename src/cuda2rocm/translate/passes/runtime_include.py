"""Insert ``#include "hip/hip_runtime.h"`` once, after leading comments and the include guard.

nvcc includes ``cuda_runtime.h`` implicitly in ``.cu`` files; hipcc does not, so a translated file that uses
HIP (kernels, launches, built-in variables, runtime calls) without including it gets the include.
"""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.model import Edit
from cuda2rocm.source.tokens import COMMENT, IDENT, NL, PUNCT, WS, Token
from cuda2rocm.translate.context import Context

_DEVICE_WORDS = frozenset({
    "__global__", "__device__", "__shared__", "__constant__", "__managed__", "threadIdx", "blockIdx", "blockDim",
    "gridDim", "__syncthreads", "__launch_bounds__",
})


def needs_runtime(ctx: Context) -> bool:
    """Device code needs hip_runtime.h; host API calls need it only if nothing was included for them; a file that
    includes it only after hip_cooperative_groups.h gets it again at the top (the header guard makes that free)."""
    if ctx.runtime_first:
        return True
    if ctx.has_hip_runtime:
        return False
    device = any(
        (t.kind == IDENT and t.src in _DEVICE_WORDS) or (t.kind == PUNCT and t.src == "<<<") for t in ctx.tokens
    )
    return device or (ctx.uses_hip_runtime and not ctx.converted[("headers", "include")])


def edits(ctx: Context) -> Iterator[Edit]:
    if not needs_runtime(ctx):
        return
    newline = "\r\n" if "\r\n" in ctx.text[:4096] else "\n"
    at = insertion_point(ctx.tokens)
    yield Edit(at, at, f'#include "hip/hip_runtime.h"{newline}', "headers:hip-runtime")
    ctx.converted[("headers", "hip-runtime")] += 1


def insertion_point(tokens: list[Token]) -> int:
    """Offset after leading comments/blank lines, ``#pragma once`` and an ``#ifndef X``/``#define X`` guard."""
    lines: list[tuple[list[str], int]] = []
    more = _leading_lines(tokens)  # read as far as the decision needs (one line ahead, for a guard)

    def have(k: int) -> bool:
        while len(lines) <= k:
            line = next(more, None)
            if line is None:
                return False
            lines.append(line)
        return True

    at = 0
    k = 0
    while have(k):
        words, end = lines[k]
        if not words or words == ["#", "pragma", "once"]:  # comment, blank line, #pragma once
            at, k = end, k + 1
        elif have(k + 1) and _is_guard(lines, k):
            at, k = lines[k + 1][1], k + 2
        else:
            break
    return at


def _is_guard(lines: list[tuple[list[str], int]], k: int) -> bool:
    if k + 1 >= len(lines):
        return False
    first, second = lines[k][0], lines[k + 1][0]
    return (
        len(first) == 3 and first[:2] == ["#", "ifndef"]
        and len(second) >= 3 and second[:2] == ["#", "define"] and second[2] == first[2]
    )


def _leading_lines(tokens: list[Token], limit: int = 64) -> Iterator[tuple[list[str], int]]:
    """The first ``limit`` lines as (code words, offset after the line's newline), one at a time."""
    words: list[str] = []
    count = 0
    for tok in tokens:
        if tok.kind == NL or (tok.kind == COMMENT and "\n" in tok.src and not tok.pp and not words):
            if tok.kind == NL:
                yield words, tok.end
                words = []
                count += 1
            if count >= limit:
                return
        elif tok.kind not in (WS, COMMENT, "ESCNL"):
            words.append(tok.src)
