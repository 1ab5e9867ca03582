"""``k<<<g, b, s, q>>>(args)`` -> ``hipLaunchKernelGGL(k, dim3(g), dim3(b), s, q, args)`` (``--launch-syntax ggl``).

Only the launch punctuation is rewritten, so identifier edits inside the configuration or the arguments
never overlap. Templated kernels are wrapped in ``HIP_KERNEL_NAME(...)`` because their commas would
otherwise split the macro argument; so is a kernel that is a parameter of the function-like macro whose body
holds the launch (``#define RUN(k, ...) k<<<...>>>(...)``), since its argument may be a template-id.
"""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.model import Edit
from cuda2rocm.source.structure import Launch, find_launches
from cuda2rocm.source.tokens import IDENT, PUNCT, TRIVIA
from cuda2rocm.translate import rules
from cuda2rocm.translate.context import Context
from cuda2rocm.translate.passes.arguments import join_template_arguments

RULE = "launch:ggl"


def edits(ctx: Context) -> Iterator[Edit]:
    if ctx.options.launch_syntax != "ggl" or not any(t.src == "<<<" for t in ctx.tokens if t.kind == PUNCT):
        return
    for found in find_launches(ctx.tokens, ctx.brackets()):
        launch = found._replace(config=tuple(join_template_arguments(ctx.tokens, list(found.config))))
        if launch.args_open < 0:
            continue
        callee = _odd_callee(ctx, launch)
        if callee is not None:
            what = f"launch through {callee}: not a kernel name" if callee else "launch without a kernel name"
            ctx.report(rules.LAUNCH_KEPT, ctx.tokens[launch.open_index].offset,
                       f"{what} convert can pass to hipLaunchKernelGGL; kept as <<<...>>> (hipcc accepts it)")
            continue
        if not ctx.tokens[launch.open_index].pp and any(t.pp for t in ctx.tokens[launch.open_index:launch.args_close]):
            ctx.report(rules.LAUNCH_KEPT, ctx.tokens[launch.open_index].offset,
                       f"launch of {launch.name}: a preprocessor directive inside its configuration or arguments "
                       "cannot be part of hipLaunchKernelGGL's (a macro's) arguments; kept as <<<...>>> "
                       "(hipcc accepts it)")
            continue
        parts = _macro_parts(ctx, launch) if len(launch.config) == 1 else 0
        if not 2 <= (parts or len(launch.config)) <= 4:
            # from <<< to the >> of >>> (an empty configuration has no argument ranges)
            config = ctx.text[ctx.tokens[launch.open_index].end:ctx.tokens[launch.close_index - 1].offset].strip()
            ctx.report(rules.LAUNCH_KEPT, ctx.tokens[launch.open_index].offset,
                       f"launch of {launch.name}: its configuration <<<{config}>>> is not 2 to 4 parameters convert "
                       "can count; kept as <<<...>>> (hipcc accepts it)")
            continue
        ctx.converted[("launch", "hipLaunchKernelGGL")] += 1
        ctx.uses_hip_runtime = True
        yield from (_rewrite_macro(ctx, launch, parts) if parts else _rewrite(ctx, launch))


def _odd_callee(ctx: Context, launch: Launch) -> str | None:
    """The callee's text where it is no (qualified, templated) kernel name: a function pointer (``(*fp)``,
    ``table[i]``) or a member (``obj.k``); "" where there is no callee (malformed code); None for a kernel name."""
    toks = ctx.tokens
    name = launch.name_index
    before = ctx.prev_code(_callee_start(ctx, launch))
    if toks[name].kind == IDENT and (before < 0 or toks[before].src not in (".", "->")):
        return None
    if toks[name].kind != IDENT and toks[name].src not in (")", "]"):
        return ""
    start = name
    if toks[name].src in (")", "]"):
        start = ctx.brackets().get(name, name)
        before = ctx.prev_code(start)
        if before >= 0 and toks[before].kind == IDENT:  # table[i]
            start, before = before, ctx.prev_code(before)
    while before >= 0 and toks[before].src in (".", "->") and ctx.prev_code(before) >= 0:  # obj.k, a->b.k
        start = ctx.prev_code(before)
        before = ctx.prev_code(start)
    return ctx.text[toks[start].offset:toks[launch.open_index].offset].strip()


def _macro_parts(ctx: Context, launch: Launch) -> int:
    """``k<<<CFG>>>`` where the file defines ``#define CFG grid, block[, smem[, stream]]``: the number of launch
    parameters its body has (0 when the configuration is not one such macro)."""
    toks = ctx.tokens
    code = [k for k in range(*launch.config[0]) if toks[k].kind not in TRIVIA]
    if len(code) != 1 or toks[code[0]].kind != IDENT:
        return 0
    name = toks[code[0]].src
    for k, tok in enumerate(toks):
        if tok.src != name or not tok.pp or tok.kind != IDENT:
            continue
        define = ctx.prev_code(k)
        hash_ = ctx.prev_code(define) if define >= 0 else -1
        if define < 0 or toks[define].src != "define" or hash_ < 0 or toks[hash_].src != "#":
            continue
        if k + 1 < len(toks) and toks[k + 1].src == "(":
            return 0  # a function-like macro
        body, j = [], k + 1
        while j < len(toks) and toks[j].pp:
            body.append(j)
            j += 1
        ctx.brackets()
        depth, commas = 0, 0
        for b in body:
            if toks[b].kind != PUNCT:
                continue
            if toks[b].src in ("(", "[", "{"):
                depth += 1
            elif toks[b].src in (")", "]", "}"):
                depth -= 1
            elif toks[b].src == "," and depth == 0:
                commas += 1
        return commas + 1 if commas else 0
    return 0


def _rewrite_macro(ctx: Context, launch: Launch, parts: int) -> Iterator[Edit]:
    """``k<<<CFG>>>(a)`` -> ``hipLaunchKernelGGL(k, CFG, 0, 0, a)``: the macro's grid and block stay as they are
    (hipLaunchKernelGGL takes ``const dim3&``, to which both convert)."""
    toks = ctx.tokens
    start = _callee_start(ctx, launch)
    templated = _wrapped_name(ctx, launch, start)
    yield Edit(toks[start].offset, toks[start].offset, "hipLaunchKernelGGL(" + ("HIP_KERNEL_NAME(" if templated
                                                                                else ""), RULE)
    yield Edit(toks[launch.open_index].offset, toks[launch.open_index].end, (")" if templated else "") + ", ", RULE)
    has_args = ctx.next_code(launch.args_open) != launch.args_close
    tail = {2: ", 0, 0", 3: ", 0", 4: ""}[parts] + (", " if has_args else "")
    yield Edit(toks[launch.config[-1][1]].offset, toks[launch.args_open].end, tail, RULE)


def _callee_start(ctx: Context, launch: Launch) -> int:
    """First token of the callee: walks back over ``ns::`` qualifiers and template arguments."""
    toks = ctx.tokens
    i = launch.name_index
    while True:
        p = ctx.prev_code(i)
        if p >= 0 and toks[p].src == "::":
            q = ctx.prev_code(p)
            i = q if q >= 0 and toks[q].kind == IDENT else p
            if toks[i].src == "::":
                return i
            continue
        return i


def _wrapped_name(ctx: Context, launch: Launch, start: int) -> bool:
    """Whether the kernel name (from token ``start``) goes inside ``HIP_KERNEL_NAME(...)``: a templated kernel, or
    a parameter of the macro holding the launch (its argument may be a template-id with commas)."""
    return ctx.prev_code(launch.open_index) != launch.name_index or (
        start == launch.name_index and _macro_parameter(ctx, launch.name_index))


def _macro_parameter(ctx: Context, i: int) -> bool:
    """Token ``i`` is a parameter name of the function-like ``#define`` whose body it is in: the argument the
    macro is given (``k<T, 4>``) may hold top-level commas that would split hipLaunchKernelGGL's arguments."""
    toks = ctx.tokens
    if not toks[i].pp or toks[i].kind != IDENT:
        return False
    k = i
    while k > 0 and toks[k - 1].pp and toks[k - 1].kind != "NL":
        k -= 1
    code = [j for j in range(k, i) if toks[j].kind not in TRIVIA]
    if len(code) < 4 or toks[code[0]].src != "#" or toks[code[1]].src != "define":
        return False
    name, paren = code[2], code[3]
    if toks[paren].src != "(" or toks[paren].offset != toks[name].end:  # an object-like macro
        return False
    for j in code[4:]:  # the parameter list: names and commas up to the first ")"
        if toks[j].src == ")":
            return False
        if toks[j].kind == IDENT and toks[j].src == toks[i].src:
            return True
    return False


def _rewrite(ctx: Context, launch: Launch) -> Iterator[Edit]:
    toks = ctx.tokens
    start = _callee_start(ctx, launch)
    templated = _wrapped_name(ctx, launch, start)
    opener = "hipLaunchKernelGGL(" + ("HIP_KERNEL_NAME(" if templated else "")
    yield Edit(toks[start].offset, toks[start].offset, opener, RULE)
    close_name = ")" if templated else ""
    yield Edit(toks[launch.open_index].offset, toks[launch.open_index].end, close_name + ", dim3(", RULE)
    # comma after the grid -> "), dim3(" ; comma after the block -> "),"
    grid_end, block_end = launch.config[0][1], launch.config[1][1]
    yield Edit(toks[grid_end].offset, _after_spaces(ctx, grid_end), "), dim3(", RULE)
    defaults = {2: "), 0, 0", 3: ", 0", 4: ""}[len(launch.config)]
    close_start = toks[launch.config[-1][1]].offset  # the ">>" token
    has_args = ctx.next_code(launch.args_open) != launch.args_close
    if len(launch.config) > 2:
        yield Edit(toks[block_end].offset, toks[block_end].end, "),", RULE)
    tail = defaults + (", " if has_args else "")
    yield Edit(close_start, toks[launch.args_open].end, tail, RULE)


def _after_spaces(ctx: Context, i: int) -> int:
    """End offset of token ``i`` and the plain spaces right after it (never comments or newlines)."""
    toks = ctx.tokens
    j = i + 1
    while j < len(toks) and toks[j].kind == "WS":
        j += 1
    return toks[j - 1].end
