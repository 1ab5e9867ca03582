"""C++ that nvcc accepts and hipcc (clang, ``-std=c++17``) rejects, rewritten in files that are being translated.

- the ``register`` storage class: removed in C++17; nvcc still accepts it, clang rejects it
  ("ISO C++17 does not allow 'register' storage class specifier"). Dropping the keyword keeps the meaning
  (compilers ignore it) and is valid in every C++ standard. C files (``.c``) keep it: it is valid C.
- ``std::printf`` in device code (``__global__``/``__device__`` bodies): HIP's device printf is the global
  ``printf``; ``std::printf`` names the host function, which device code cannot call.
- ``#pragma weak alias = target`` where the target is a host variable or function of the file: hipcc compiles
  the file for the device too, where host entities are not emitted ("alias must point to a defined variable or
  function"); nvcc gives host code to the host compiler only. The pragma is kept for the host pass behind
  ``#if !defined(__HIP_DEVICE_COMPILE__)`` (C2R-A115); the host object is unchanged.
- ``CUDART_CB`` in a callback's declaration (``void CUDART_CB done(void*)``): CUDA defines it as ``__stdcall`` on
  Windows and as nothing elsewhere, and HIP for AMD defines no counterpart; on Linux, ROCm's only platform, deleting
  it (with the blank after it) keeps the meaning. A file that defines ``CUDART_CB`` itself keeps it.
"""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.hazards.devicecalls import DEVICE_GLOBAL
from cuda2rocm.model import Edit
from cuda2rocm.source.tokens import IDENT, PUNCT, WS, Token
from cuda2rocm.translate import rules
from cuda2rocm.translate.context import Context


def edits(ctx: Context) -> Iterator[Edit]:
    yield from weak_aliases(ctx)  # a .cu file or one with device code: hipcc compiles it for the device
    if not ctx.converted:
        return  # a file without CUDA references is not ours to rewrite
    yield from _register(ctx)
    yield from _std_in_device_code(ctx)
    yield from _callback_convention(ctx)


def _callback_convention(ctx: Context) -> Iterator[Edit]:
    """``CUDART_CB`` deleted where code uses it (module doc); the finding that it has no HIP name goes with it."""
    uses = [i for i in ctx.positions("CUDART_CB") if not ctx.tokens[i].pp]
    if not uses or any(ctx.tokens[i].pp for i in ctx.positions("CUDART_CB")):
        return  # none, or the file defines or tests the macro itself
    toks = ctx.tokens
    gone = set()
    for i in uses:
        end = toks[i + 1].end if i + 1 < len(toks) and toks[i + 1].kind == WS else toks[i].end
        gone.add(ctx.index.line_col(toks[i].offset))
        yield Edit(toks[i].offset, end, "", "dialect:callback-convention")
    ctx.findings[:] = [f for f in ctx.findings if not (f.rule == rules.UNSUPPORTED.id and (f.line, f.col) in gone)]


HOST_PASS = "#if !defined(__HIP_DEVICE_COMPILE__)"
_DEVICE_SUFFIXES = (".cu", ".cuh", ".hip")
#: qualifiers of the entities the device pass does emit (an alias of one of them compiles)
_DEVICE_ENTITY = frozenset({"__device__", "__global__", "__constant__", "__managed__", "__shared__"})
_SKIP = frozenset({WS, "COMMENT", "ESCNL"})


def weak_aliases(ctx: Context) -> Iterator[Edit]:
    text, toks = ctx.text, ctx.tokens
    if "weak" not in text or "pragma" not in text:
        return
    if not ctx.path.lower().endswith(_DEVICE_SUFFIXES) and "__global__" not in text and "__device__" not in text:
        return
    for i, tok in enumerate(toks):
        if tok.src != "weak" or not tok.pp:
            continue
        pragma = _step(toks, i, -1)
        hash_ = _step(toks, pragma, -1)
        alias = _step(toks, i, 1)
        eq = _step(toks, alias, 1)
        target = _step(toks, eq, 1)
        if (hash_ < 0 or toks[pragma].src != "pragma" or toks[hash_].src != "#" or target >= len(toks)
                or toks[eq].src != "=" or toks[target].kind != IDENT or not toks[target].pp):
            continue  # `#pragma weak name` declares a weak symbol: no alias, nothing to point at
        what = _host_entity(ctx, toks[target].src)
        line_start = ctx.index.start(ctx.index.line(toks[hash_].offset))
        before = text[:line_start].rstrip("\r\n")
        if what is None or before[before.rfind("\n") + 1:].strip() == HOST_PASS:
            continue  # a device entity, one defined elsewhere, or kept out of the device pass already
        end = target
        while end + 1 < len(toks) and toks[end + 1].pp and toks[end + 1].kind != "NL":
            end += 1
        newline = "\r\n" if "\r\n" in text[:4096] else "\n"
        ctx.report(rules.WEAK_ALIAS, toks[hash_].offset,
                   f"#pragma weak {toks[alias].src} = {toks[target].src}: '{toks[target].src}' is a host {what} of "
                   f"this file, which hipcc's device pass does not emit ('alias must point to a defined variable or "
                   f"function'); kept for the host pass behind {HOST_PASS}")
        ctx.converted[("c++", "weak-alias")] += 1
        yield Edit(line_start, line_start, HOST_PASS + newline, "c++:weak-alias")
        yield Edit(toks[end].end, toks[end].end, newline + "#endif", "c++:weak-alias")


def _step(toks: list[Token], i: int, by: int) -> int:
    """The next (``by`` 1) or previous (-1) token of the same line that is not space or a comment."""
    k = i + by
    while 0 <= k < len(toks) and toks[k].kind in _SKIP:
        k += by
    return k


def _host_entity(ctx: Context, name: str) -> str | None:
    """'variable' or 'function' when the file declares ``name`` in code without a device qualifier."""
    toks = ctx.tokens
    found = None
    for i, tok in enumerate(toks):
        if tok.src != name or tok.pp or tok.kind != IDENT:
            continue
        words = []
        k = ctx.prev_code(i)
        while k >= 0 and toks[k].src not in (";", "{", "}") and not toks[k].pp:
            words.append(toks[k].src)
            k = ctx.prev_code(k)
        if not words or words[0] in (".", "->", "::", "(", ",", "=", "return", "+", "-", "<<", "&&", "||"):
            continue  # a use, not a declaration
        if set(words) & _DEVICE_ENTITY:
            return None
        found = "function" if toks[ctx.next_code(i)].src == "(" else "variable"
    return found


def _std_in_device_code(ctx: Context) -> Iterator[Edit]:
    if "std" not in ctx.text or not any(n in ctx.text for n in DEVICE_GLOBAL):
        return
    toks = ctx.tokens
    if not any(_src(toks, ctx.next_code(ctx.next_code(i))) in DEVICE_GLOBAL for i in ctx.positions("std")
               if _src(toks, ctx.next_code(i)) == "::"):
        return  # no std::<name> of the list anywhere: the functions need not be found
    for fn in ctx.functions():
        if not fn.is_device:
            continue
        for i in range(fn.body_open + 1, fn.body_close):
            tok = toks[i]
            if tok.kind != IDENT or tok.src not in DEVICE_GLOBAL or tok.pp:
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


def _src(toks: list[Token], i: int) -> str:
    return toks[i].src if i < len(toks) else ""


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
