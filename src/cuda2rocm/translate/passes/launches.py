"""``k<<<g, b, s, q>>>(args)`` -> ``hipLaunchKernelGGL(k, dim3(g), dim3(b), s, q, args)`` (``--launch-syntax ggl``).

Only the launch punctuation is rewritten, so identifier edits inside the configuration or the arguments
never overlap. Templated kernels are wrapped in ``HIP_KERNEL_NAME(...)`` because their commas would
otherwise split the macro argument.
"""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.model import Edit
from cuda2rocm.source.structure import Launch, find_launches, match_brackets
from cuda2rocm.source.tokens import IDENT, PUNCT
from cuda2rocm.translate.context import Context

RULE = "launch:ggl"


def edits(ctx: Context) -> Iterator[Edit]:
    if ctx.options.launch_syntax != "ggl" or not any(t.src == "<<<" for t in ctx.tokens if t.kind == PUNCT):
        return
    if ctx.pairs is None:
        ctx.pairs = match_brackets(ctx.tokens)
    for launch in find_launches(ctx.tokens, ctx.pairs):
        if launch.args_open < 0 or len(launch.config) < 2 or len(launch.config) > 4:
            continue
        ctx.converted[("launch", "hipLaunchKernelGGL")] += 1
        ctx.uses_hip_runtime = True
        yield from _rewrite(ctx, launch)


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


def _rewrite(ctx: Context, launch: Launch) -> Iterator[Edit]:
    toks = ctx.tokens
    start = _callee_start(ctx, launch)
    templated = ctx.prev_code(launch.open_index) != launch.name_index
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
