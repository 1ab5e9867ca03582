"""C++ that nvcc accepts and hipcc (clang, ``-std=c++17``) rejects, rewritten in files that are being translated.

- the ``register`` storage class: removed in C++17; nvcc still accepts it, clang rejects it
  ("ISO C++17 does not allow 'register' storage class specifier"). Dropping the keyword keeps the meaning
  (compilers ignore it) and is valid in every C++ standard. C files (``.c``) keep it: it is valid C.
- ``std::printf`` in device code (``__global__``/``__device__`` bodies): HIP's device printf is the global
  ``printf``; ``std::printf`` names the host function, which device code cannot call.
"""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.model import Edit
from cuda2rocm.source.structure import find_functions, match_brackets
from cuda2rocm.source.tokens import IDENT, PUNCT, WS
from cuda2rocm.translate.context import Context

#: ``std::`` functions whose device-code spelling is the global one
_DEVICE_GLOBAL = frozenset({"printf"})


def edits(ctx: Context) -> Iterator[Edit]:
    if not ctx.converted:
        return  # a file without CUDA references is not ours to rewrite
    yield from _register(ctx)
    yield from _std_in_device_code(ctx)


def _std_in_device_code(ctx: Context) -> Iterator[Edit]:
    if "std" not in ctx.text or not any(n in ctx.text for n in _DEVICE_GLOBAL):
        return
    toks = ctx.tokens
    if ctx.pairs is None:
        ctx.pairs = match_brackets(toks)
    for fn in find_functions(toks, ctx.pairs):
        if not fn.is_device:
            continue
        for i in range(fn.body_open + 1, fn.body_close):
            tok = toks[i]
            if tok.kind != IDENT or tok.src not in _DEVICE_GLOBAL or tok.pp:
                continue
            scope = ctx.prev_code(i)
            std = ctx.prev_code(scope) if scope >= 0 else -1
            if scope < 0 or toks[scope].kind != PUNCT or toks[scope].src != "::" or std < 0 or toks[std].src != "std":
                continue
            before = ctx.prev_code(std)
            if before >= 0 and toks[before].src == "::":  # ::std::printf
                std = before
            ctx.converted[("device", "std-function")] += 1
            yield Edit(toks[std].offset, tok.offset, "", "device:std-function")


def _register(ctx: Context) -> Iterator[Edit]:
    if ctx.path.lower().endswith(".c") or "register" not in ctx.text:
        return
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
