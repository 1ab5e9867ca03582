"""CUDA version macros compared in directives (``#if CUDART_VERSION < 9000``): hip-clang defines none of them, so
each counts as 0 there and the branch for an old CUDA (often an ``#error``) is taken. convert writes the compared
name as a macro of ours (``CUDA2ROCM_CUDART_VERSION``; the identifier pass) and inserts, once, after the leading
comments and include guard::

    #if defined(__HIP__) && !defined(CUDART_VERSION)
    #define CUDA2ROCM_CUDART_VERSION 12060
    #else
    #define CUDA2ROCM_CUDART_VERSION CUDART_VERSION
    #endif

(each inside ``#ifndef CUDA2ROCM_CUDART_VERSION``, so a header's block and its includer's compose)
with the value of the CUDA release the mapping tables reach (``defined_only.csv``'s ``hip_value``), so the branch the
project meant for a modern CUDA is taken. No CUDA name gets defined: hipSPARSE's header, for one, reads a defined
``CUDART_VERSION`` as the NVIDIA platform. ``__HIP__`` is what hip-clang predefines for AMD; ``__HIPCC__`` is defined
on the NVIDIA platform too, where CUDA's own numbers stand (the ``#else``). Runs after the engine's ``_live``:
comparisons in the CUDA-only branches of a platform switch, and in their tests, do not count (the file's HIP branch
decides there)."""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.model import Edit
from cuda2rocm.source.platform import body_start
from cuda2rocm.translate import data, rules
from cuda2rocm.translate.context import Context
from cuda2rocm.translate.passes.runtime_include import insertion_point

#: the guard of the inserted block: a second run leaves it as it is (``helpers.own_spans``)
GUARD = "CUDA2ROCM_CUDA_VERSION_H"


def macro(name: str) -> str:
    """Our spelling of a compared CUDA version macro: ``__CUDACC_VER_MAJOR__`` -> ``CUDA2ROCM_CUDACC_VER_MAJOR``."""
    return "CUDA2ROCM_" + name.strip("_")


def value_for_hip(ctx: Context, i: int) -> str:
    """For a version macro compared at token ``i``: the value it stands for under hip-clang, or "" to keep it as
    it is (in code, where HIP has no such number; or the file defines the name itself)."""
    name = ctx.tokens[i].src
    value = data.version_values().get(name, "")
    if not value or not ctx.tokens[i].pp:
        return ""
    for k in ctx.positions(name):
        p = ctx.prev_code(k)
        if ctx.tokens[k].pp and p >= 0 and ctx.tokens[p].src in ("define", "undef") and ctx.tokens[p].pp:
            return ""
    return value


def with_block(ctx: Context, edits: list[Edit]) -> list[Edit]:
    """``edits`` with the block of definitions added, and without the rewrites (and findings) of comparisons in the
    test of a platform switch's CUDA-only branch (``#elif CUDART_VERSION < 9000`` after ``#if defined(__HIPCC__)``):
    the file's switch decides there, and such a test stays as written."""
    tokens = ctx.tokens
    dead = {i for i in ctx.compared_versions if ctx.dead is not None and body_start(tokens, i) in ctx.dead}
    if dead:
        spans = {(tokens[i].offset, tokens[i].end) for i in dead}
        edits = [e for e in edits if (e.start, e.end) not in spans]
        lines = {ctx.index.line_col(tokens[i].offset) for i in dead}
        ctx.findings[:] = [f for f in ctx.findings if not (f.rule == rules.VERSION_COMPARED.id
                                                           and (f.line, f.col) in lines)]
    live = [i for i in ctx.compared_versions
            if i not in dead and (ctx.dead is None or tokens[i].offset not in ctx.dead)]
    return edits + list(_block(ctx, live))


def _block(ctx: Context, live: list[int]) -> Iterator[Edit]:
    tokens = ctx.tokens
    names = list(dict.fromkeys(tokens[i].src for i in live))
    if not names or ctx.positions(GUARD):  # none, or a first run inserted the block (the file is its output)
        return
    newline = "\r\n" if "\r\n" in ctx.text[:4096] else "\n"
    values = data.version_values()
    lines = [f"#ifndef {GUARD}",  # never defined: it marks the block; each macro has its own test (blocks compose)
             "// cuda2rocm: CUDA version macros compared here; for hip-clang, those of the CUDA release assumed"]
    for name in names:
        ours = macro(name)
        lines += [f"#ifndef {ours}", f"#if defined(__HIP__) && !defined({name})", f"#define {ours} {values[name]}",
                  "#else", f"#define {ours} {name}", "#endif", "#endif"]
    lines.append(f"#endif  // {GUARD}")
    at = insertion_point(tokens)
    yield Edit(at, at, newline.join(lines) + newline, "versions:defined")
