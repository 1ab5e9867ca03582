"""Report what translation makes identical: overloads (``f(cudaError_t)`` and ``f(CUresult)`` both become
``f(hipError_t)``, as in cuda-samples' helper_cuda.h) and ``case`` labels of one ``switch`` (two CUDA status codes
that map to one HIP code). hipcc rejects both: a redefinition, a duplicate case value."""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.model import Edit
from cuda2rocm.source.structure import Function, find_functions, match_brackets, split_args
from cuda2rocm.source.tokens import IDENT, TRIVIA
from cuda2rocm.translate import rules
from cuda2rocm.translate.context import Context


def edits(ctx: Context) -> Iterator[Edit]:
    """No edits: C2R-A111 per colliding function definition, C2R-A112 per colliding case label."""
    if not _can_collide(ctx):
        return iter(())
    if ctx.pairs is None:
        ctx.pairs = match_brackets(ctx.tokens)
    _overloads(ctx)
    for i, tok in enumerate(ctx.tokens):
        if tok.kind == IDENT and tok.src == "switch" and not tok.pp:
            _case_labels(ctx, i)
    return iter(())


def _overloads(ctx: Context) -> None:
    assert ctx.pairs is not None
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


def _case_labels(ctx: Context, switch: int) -> None:
    """Report ``case`` labels of this switch (nested switches excluded) that become equal."""
    assert ctx.pairs is not None
    toks, pairs = ctx.tokens, ctx.pairs
    cond = ctx.next_code(switch)
    body = ctx.next_code(pairs.get(cond, len(toks)))
    if cond >= len(toks) or toks[cond].src != "(" or body >= len(toks) or toks[body].src != "{" or body not in pairs:
        return
    seen: dict[str, tuple[str, int]] = {}
    j = body + 1
    while j < pairs[body]:
        src = toks[j].src if toks[j].kind == IDENT else ""
        if src == "switch":  # a nested switch has its own labels
            inner = ctx.next_code(pairs.get(ctx.next_code(j), j))
            j = pairs.get(inner, j) + 1
            continue
        if src == "case":
            end = next((k for k in range(j + 1, pairs[body]) if toks[k].src == ":" and toks[k].kind == "PUNCT"), j)
            code = [k for k in range(j + 1, end) if toks[k].kind not in TRIVIA]
            before = " ".join(toks[k].src for k in code)
            after = " ".join(_name(ctx, k) for k in code)
            first = seen.setdefault(after, (before, j))
            if first[1] != j and first[0] != before:
                line = ctx.index.line(toks[first[1]].offset)
                ctx.report(rules.CASE_COLLISION, toks[j].offset, f"case {before} becomes case {after}, the same "
                           f"as case {first[0]} at line {line}: hipcc rejects the duplicate case value")
            j = max(end, j + 1)
            continue
        j += 1


def _can_collide(ctx: Context) -> bool:
    """Whether two different names of the file can end up the same: two CUDA names translated to one HIP name,
    or a CUDA name translated to a name the file already spells (``f(cudaError_t)`` next to ``f(hipError_t)``)."""
    sources: dict[str, str] = {}
    for name, decision in ctx.decisions.items():  # the identifier pass decided every identifier of the file
        if decision is None or not decision.converted:
            continue
        if sources.setdefault(decision.replacement, name) != name or decision.replacement in ctx.decisions:
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
