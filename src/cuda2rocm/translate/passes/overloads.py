"""Report what translation makes identical or ambiguous: overloads (``f(cudaError_t)`` and ``f(CUresult)`` both become
``f(hipError_t)``, as in cuda-samples' helper_cuda.h) and ``case`` labels of one ``switch`` (two CUDA status codes
that map to one HIP code). hipcc rejects both: a redefinition, a duplicate case value. And guard what HIP's headers
make ambiguous: a project's ``operator+=(float4&, float4)`` beside HIP's member of that signature
(:func:`vector_operators`)."""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.model import Edit
from cuda2rocm.source.structure import Function, split_args
from cuda2rocm.source.tokens import IDENT, TRIVIA
from cuda2rocm.translate import data, rules
from cuda2rocm.translate.context import Context


def edits(ctx: Context) -> Iterator[Edit]:
    """No edits: C2R-A111 per colliding function definition, C2R-A112 per colliding case label."""
    if not _can_collide(ctx):
        return iter(())
    ctx.brackets()
    _overloads(ctx)
    for i, tok in enumerate(ctx.tokens):
        if tok.kind == IDENT and tok.src == "switch" and not tok.pp:
            _case_labels(ctx, i)
    return iter(())


def _overloads(ctx: Context) -> None:
    assert ctx.pairs is not None
    seen: dict[tuple[str, tuple[str, ...]], tuple[Function, tuple[str, ...]]] = {}
    for fn in ctx.functions():
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


GUARD = "#if !defined(__HIP_PLATFORM_AMD__)"


def vector_operators(ctx: Context) -> Iterator[Edit]:
    """Guard free compound-assignment operators on two CUDA vector types (``void operator+=(float4&, float4)``)
    that HIP's vector types define as members for the same operands: hipcc calls every use ambiguous
    (C2R-A114). The definition (or declaration) is kept for NVIDIA behind ``#if !defined(__HIP_PLATFORM_AMD__)``."""
    if "operator" not in ctx.text:
        return
    toks = ctx.tokens
    pairs = ctx.brackets()
    ops, types = data.vector_member_operators(), data.vector_types()
    for i, tok in enumerate(toks):
        if tok.kind != IDENT or tok.src != "operator" or tok.pp:
            continue
        op = ctx.next_code(i)
        paren = ctx.next_code(op)
        if op >= len(toks) or toks[op].src not in ops or paren >= len(toks) or toks[paren].src != "(":
            continue
        if paren not in pairs or toks[ctx.prev_code(i)].src in ("::", ".", "->"):
            continue  # a member defined out of line (A::operator+=), or a call
        vector = _vector_operands(ctx, paren, types)
        if not vector:
            continue
        start, end = _declaration(ctx, i, pairs[paren])
        if start < 0 or _already_guarded(ctx, start):
            continue
        ctx.report(rules.VECTOR_OPERATOR, toks[i].offset,
                   f"operator{toks[op].src}({vector}&, {vector}) is also a member of HIP's {vector} "
                   f"(HIP_vector_type): every use would be ambiguous under hipcc; kept for NVIDIA behind {GUARD}")
        ctx.converted[("device", "vector-operator")] += 1
        yield from _guard(ctx, start, end)


def _vector_operands(ctx: Context, paren: int, types: frozenset[str]) -> str:
    """The vector type when the parameters are ``(V& a, V b)`` or ``(V& a, const V& b)``; '' otherwise."""
    assert ctx.pairs is not None
    params = split_args(ctx.tokens, paren, ctx.pairs)
    if len(params) != 2:
        return ""
    first, second = ([ctx.tokens[k].src for k in range(s, e) if ctx.tokens[k].kind not in TRIVIA] for s, e in params)
    names = [w for w in first if w in types]
    if len(names) != 1 or "&" not in first or "const" in first or "*" in first:
        return ""
    vector = names[0]
    if [w for w in second if w in types] != [vector] or "*" in second or ("&" in second and "const" not in second):
        return ""
    return vector


def _declaration(ctx: Context, at: int, params_close: int) -> tuple[int, int]:
    """(first token, last token) of the function declaration around ``operator`` at ``at``: from after the previous
    statement, brace or directive to the closing brace of its body or its ';'; (-1, -1) when it is not one."""
    toks, pairs = ctx.tokens, ctx.pairs
    assert pairs is not None
    start = at
    k = ctx.prev_code(at)
    while k >= 0 and toks[k].src not in (";", "{", "}") and not toks[k].pp:
        start = k
        k = ctx.prev_code(k)
    j = ctx.next_code(params_close)
    while j < len(toks) and toks[j].src not in ("{", ";", "}", "="):
        j = ctx.next_code(j)
    if j >= len(toks) or toks[j].src == "}" or toks[j].src == "=":
        return -1, -1
    end = pairs.get(j, -1) if toks[j].src == "{" else j
    return (start, end) if end >= 0 else (-1, -1)


def _already_guarded(ctx: Context, start: int) -> bool:
    line_start = ctx.index.start(ctx.index.line(ctx.tokens[start].offset))
    before = ctx.text[:line_start].rstrip("\r\n")
    return before[before.rfind("\n") + 1:].strip() == GUARD


def _guard(ctx: Context, start: int, end: int) -> Iterator[Edit]:
    toks = ctx.tokens
    newline = "\r\n" if "\r\n" in ctx.text[:4096] else "\n"
    first = toks[start].offset
    line_start = ctx.index.start(ctx.index.line(first))
    if ctx.text[line_start:first].strip():  # code before it on its line
        yield Edit(first, first, f"{newline}{GUARD}{newline}", "device:vector-operator")
    else:
        yield Edit(line_start, line_start, f"{GUARD}{newline}", "device:vector-operator")
    after = toks[end].end
    nxt = ctx.next_code(end)
    same_line = nxt < len(toks) and ctx.index.line(toks[nxt].offset) == ctx.index.line(toks[end].offset)
    yield Edit(after, after, f"{newline}#endif{newline if same_line else ''}", "device:vector-operator")
