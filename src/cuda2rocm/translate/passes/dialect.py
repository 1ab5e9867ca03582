"""C++ that nvcc accepts and hipcc (clang, ``-std=c++17``) rejects, rewritten in files that are being translated.

- the ``register`` storage class: removed in C++17; nvcc still accepts it, clang rejects it
  ("ISO C++17 does not allow 'register' storage class specifier"). Dropping the keyword keeps the meaning
  (compilers ignore it) and is valid in every C++ standard. C files (``.c``) keep it: it is valid C.
"""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.model import Edit
from cuda2rocm.source.tokens import IDENT, WS
from cuda2rocm.translate.context import Context


def edits(ctx: Context) -> Iterator[Edit]:
    if not ctx.converted or ctx.path.lower().endswith(".c") or "register" not in ctx.text:
        return  # a file without CUDA references is not ours to rewrite
    toks = ctx.tokens
    for i, tok in enumerate(toks):
        if tok.kind != IDENT or tok.src != "register" or tok.pp:
            continue
        nxt = ctx.next_code(i)
        if nxt >= len(toks) or toks[nxt].kind != IDENT:
            continue  # `register` followed by a type or qualifier word; anything else is not the storage class
        end = toks[i + 1].end if i + 1 < len(toks) and toks[i + 1].kind == WS else tok.end
        ctx.converted[("c++17", "register")] += 1
        yield Edit(tok.offset, end, "", "c++17:register")
