"""Report overloads that translation makes identical: ``f(cudaError_t)`` and ``f(CUresult)`` both become
``f(hipError_t)`` (cuda-samples' helper_cuda.h does this), and hipcc rejects the second as a redefinition."""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.model import Edit
from cuda2rocm.source.structure import Function, find_functions, match_brackets, split_args
from cuda2rocm.source.tokens import IDENT, TRIVIA
from cuda2rocm.translate import rules
from cuda2rocm.translate.context import Context


def edits(ctx: Context) -> Iterator[Edit]:
    """No edits: one C2R-A111 finding per function definition that collides with an earlier one."""
    if not _can_collide(ctx):
        return iter(())
    if ctx.pairs is None:
        ctx.pairs = match_brackets(ctx.tokens)
    seen: dict[tuple[str, tuple[str, ...]], tuple[Function, tuple[str, ...]]] = {}
    for fn in find_functions(ctx.tokens, ctx.pairs):
        before, after = _signature(ctx, fn, False), _signature(ctx, fn, True)
        first, first_before = seen.setdefault((fn.name, after), (fn, before))
        if first is not fn and first_before != before:
            # report the definition that translation changed (the later one unless it was HIP already)
            at, was, other = (fn, before, first) if before != after else (first, first_before, fn)
            line = ctx.index.line(ctx.tokens[other.name_index].offset)
            ctx.report(rules.OVERLOAD_COLLISION, ctx.tokens[at.name_index].offset,
                       f"{fn.name}({', '.join(was)}) becomes {fn.name}({', '.join(after)}), the same as the "
                       f"overload at line {line}: hipcc rejects the redefinition")
    return iter(())


def _can_collide(ctx: Context) -> bool:
    """Whether two different names of the file can end up the same: two CUDA names translated to one HIP name,
    or a CUDA name translated to a name the file already spells (``f(cudaError_t)`` next to ``f(hipError_t)``)."""
    sources: dict[str, str] = {}
    for name, decision in ctx.decisions.items():
        if decision is None or not decision.converted:
            continue
        if sources.setdefault(decision.replacement, name) != name or decision.replacement in ctx.text:
            return True
    return False


def _signature(ctx: Context, fn: Function, translated: bool) -> tuple[str, ...]:
    """Parameter types (code tokens without the trailing parameter name), HIP names when ``translated``."""
    assert ctx.pairs is not None
    params = []
    for start, end in split_args(ctx.tokens, fn.params_open, ctx.pairs):
        code = [i for i in range(start, end) if ctx.tokens[i].kind not in TRIVIA]
        if len(code) > 1 and ctx.tokens[code[-1]].kind == IDENT:
            code = code[:-1]  # the parameter's name
        params.append(" ".join(_name(ctx, i) if translated else ctx.tokens[i].src for i in code))
    return tuple(params)


def _name(ctx: Context, i: int) -> str:
    tok = ctx.tokens[i]
    if tok.kind != IDENT:
        return tok.src
    decision = ctx.decide(tok.src)
    return decision.replacement if decision is not None and decision.converted else tok.src
