"""Report CUDA-looking identifiers that the tables do not know and the file does not define itself."""

from __future__ import annotations

import re

from cuda2rocm.source.tokens import IDENT, PUNCT, Token
from cuda2rocm.translate import rules
from cuda2rocm.translate.context import Context

_CUDA_LIKE = re.compile(
    r"(?:cuda|cublas|cublasLt|cufft|curand|cusparse|cusolver|cudnn|cutensor|nvrtc|nccl|nvtx)[A-Z_]\w*"
    r"|cu[A-Z][a-z]\w*"
    r"|(?:CUDA|CU|CUBLAS|CUFFT|CURAND|CUSPARSE|CUSOLVER|CUDNN|NCCL|NVRTC)_[A-Z0-9_]+"
)
_DECLARERS = frozenset({"define", "struct", "class", "enum", "union", "namespace", "typedef", "using"})
_NOT_TYPES = frozenset({"return", "case", "else", "goto", "throw", "new", "delete", "sizeof", "co_return"})


def looks_cuda(name: str) -> bool:
    """Whether :func:`check` can report ``name`` (a CUDA-looking identifier)."""
    return _CUDA_LIKE.fullmatch(name) is not None


def check(ctx: Context, i: int) -> None:
    name = ctx.tokens[i].src
    if not looks_cuda(name):
        return
    if ctx.defined is None:
        ctx.defined = defined_names(ctx.tokens)
    if name not in ctx.defined:
        ctx.report(rules.UNKNOWN, ctx.tokens[i].offset, f"{name} looks like a CUDA identifier but is not in "
                   "the mapping tables; left unchanged")


def defined_names(tokens: list[Token]) -> frozenset[str]:
    """Names the file declares: macros, types, functions and variables (a cheap, forgiving heuristic)."""
    names: set[str] = set()
    code = [t for t in tokens if t.kind in (IDENT, PUNCT)]
    for k in range(1, len(code)):
        tok, prev = code[k], code[k - 1]
        if tok.kind != IDENT:
            continue
        declared = prev.src in _DECLARERS or (prev.kind == IDENT and prev.src not in _NOT_TYPES)
        pointer = prev.src in ("*", "&", ">", "::") and k >= 2 and code[k - 2].kind == IDENT
        if declared or pointer:
            names.add(tok.src)
    return frozenset(names)
