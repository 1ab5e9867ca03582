"""``#include <cuda_runtime.h>`` -> ``#include <hip/hip_runtime.h>`` through the header table."""

from __future__ import annotations

import re
from collections.abc import Iterator

from cuda2rocm.model import Edit
from cuda2rocm.source.tokens import HEADER, IDENT, STRING, TRIVIA, Token
from cuda2rocm.translate import rules, tables
from cuda2rocm.translate.context import Context
from cuda2rocm.translate.decide import ROC_BY_DEFAULT

HIP_RUNTIME = "hip/hip_runtime.h"
_CUDA_HEADER = re.compile(
    r"(?:cuda|cu[a-z]+|nv[a-zA-Z_]*|npp|mma|sm_\d+|crt/|cooperative_groups|thrust/system/cuda|cub/)",
)
_RUNTIME_HEADERS = frozenset({"hip/hip_runtime.h"})


def include_operands(tokens: list[Token]) -> Iterator[int]:
    """Indexes of the operand token (``<...>`` or ``"..."``) of every #include directive."""
    for i, tok in enumerate(tokens):
        if tok.kind != IDENT or not tok.pp or tok.src not in ("include", "include_next"):
            continue
        j = i + 1
        while j < len(tokens) and tokens[j].kind in TRIVIA and tokens[j].kind != "NL":
            j += 1
        if j < len(tokens) and tokens[j].kind in (HEADER, STRING):
            yield j


def edits(ctx: Context) -> Iterator[Edit]:
    for j in include_operands(ctx.tokens):
        tok = ctx.tokens[j]
        name = tok.src[1:-1]
        if name in _RUNTIME_HEADERS:
            ctx.has_hip_runtime = True
        entry = tables.header(name)
        if entry is None:
            if tok.kind == HEADER and _CUDA_HEADER.match(name):
                ctx.report(rules.UNSUPPORTED_HEADER, tok.offset, f"unknown CUDA header <{name}>; kept")
            continue
        roc = ctx.options.roc or entry.library in ROC_BY_DEFAULT
        hip = entry.resolve(ctx.settings.target, roc=roc)
        if not hip:
            ctx.unsupported += 1
            why = f": {entry.note}" if entry.note else ""
            ctx.report(rules.UNSUPPORTED_HEADER, tok.offset, f"{name} has no HIP equivalent in ROCm "
                       f"{ctx.settings.target}{why}; kept")
            continue
        ctx.has_hip_runtime |= hip in _RUNTIME_HEADERS
        if hip != name:
            ctx.converted[("headers", "include")] += 1
            yield Edit(tok.offset, tok.end, tok.src[0] + hip + tok.src[-1], "headers:include")
