"""Intra-function data flow: which variables hold a thread index, a lane index, a warp id, a ballot, a
full 32-bit lane mask; which functions are warp-synchronous.

One forward pass over a function body in source order: ``int lane = threadIdx.x & 31;`` makes ``lane``
a lane index, ``unsigned b = __ballot_sync(...)`` makes ``b`` a ballot, ``int tid = threadIdx.x`` makes
``tid`` a thread index and so on. It is deliberately simple (no aliasing, no control flow) and errs on
the side of "unknown", which keeps the checks precise.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from cuda2rocm.hazards.common import LANEISH
from cuda2rocm.hazards.context import Source
from cuda2rocm.hazards.symbols import (
    angle_args,
    declarations,
    enclosing_record,
    file_env,
    initialiser,
    template_head,
    template_params,
)
from cuda2rocm.lazyre import lazy
from cuda2rocm.source.consteval import evaluate, parse_int
from cuda2rocm.source.structure import Function
from cuda2rocm.source.tokens import IDENT, NUMBER, PUNCT, Token

THREAD_SOURCES = frozenset({"threadIdx"})
LANE_SOURCES = frozenset({"__lane_id", "laneid", "lane_id"})
BALLOTS = frozenset({"__ballot_sync", "__ballot", "__activemask", "__match_any_sync", "__match_all_sync",
                     "__ballot_sync_u64"})
SYNC_MASKED = frozenset({"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync",
                         "__ballot_sync", "__any_sync", "__all_sync", "__uni_sync", "__syncwarp",
                         "__match_any_sync", "__match_all_sync", "__reduce_add_sync", "__reduce_min_sync",
                         "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync"})
SHUFFLES = frozenset({"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync",
                      "__shfl", "__shfl_up", "__shfl_down", "__shfl_xor"})
WARP_PRIMITIVES = SYNC_MASKED | SHUFFLES | BALLOTS | frozenset(
    {"__any", "__all", "tiled_partition", "thread_block_tile", "coalesced_threads", "__lane_id"})
FULL_MASK_32 = 0xFFFFFFFF


def is_full_mask_literal(src: Source, start: int, end: int) -> bool:
    """``0xffffffff`` (any case/suffix), ``~0u``, ``0xFFFFFFFFu``, ``(unsigned)-1`` as the whole range."""
    code = [src.src(i) for i in src.range_code(start, end)]
    if len(code) == 1:
        return parse_int(code[0]) == FULL_MASK_32 and not code[0].lower().endswith(("ll", "ull", "llu"))
    return code in (["~", "0u"], ["~", "0U"], ["~", "0"], ["(", "unsigned", ")", "-", "1"])


@dataclass
class Flow:
    thread: set[str] = field(default_factory=set)
    lane: set[str] = field(default_factory=set)
    warp: set[str] = field(default_factory=set)
    ballot: set[str] = field(default_factory=set)
    fullmask: set[str] = field(default_factory=set)
    volatile: set[str] = field(default_factory=set)
    types: dict[str, str] = field(default_factory=dict)
    warp_sync: bool = False
    #: names that stand for the warp width in this function (value 32, or 5 for a shift) and those that count
    #: only where the result is named as a lane or warp (:func:`function_widths`)
    widths: dict[str, int] = field(default_factory=dict)
    loose: dict[str, int] = field(default_factory=dict)


class LaneOp(NamedTuple):
    """A literal used as warp width in an operation on a thread index: kind lane | warp | count | compare."""

    literal: int
    op: int
    kind: str
    assigned: str  # the variable the expression is assigned to ("" if none)


def _operand_start(src: Source, op: int) -> int:
    """First token of the postfix expression just before operator ``op`` (``threadIdx.x``, ``(a+b)``...)."""
    i = src.prev(op)
    start = i
    while i >= 0:
        s = src.src(i)
        if s in (")", "]") and i in src.pairs:
            i = src.pairs[i]
            start = i
            j = src.prev(i)
            if s == ")" and src.kind(j) == IDENT:  # a call: f(x)
                start = i = j
        elif src.kind(i) == IDENT or src.kind(i) == "NUMBER":
            start = i
        else:
            break
        j = src.prev(i)
        if src.src(j) in (".", "->", "::"):
            i = src.prev(j)
            continue
        break
    return start


def mentions(src: Source, start: int, end: int, names: set[str] | frozenset[str]) -> bool:
    return any(src.kind(i) == IDENT and src.src(i) in names for i in src.range_code(start, end))


def holds_ballot(src: Source, a: int, b: int, ballots: set[str]) -> bool:
    """The value of [a, b) is (derived bitwise from) a ballot: a top-level ballot call or ballot variable."""
    top = src.top_level(a, b)
    return any((src.src(i) in BALLOTS and src.is_call(i)) or src.src(i) in ballots for i in top)


def thread_derived(src: Source, start: int, end: int, flow: Flow) -> bool:
    """[start, end) names a thread index, a lane source or a variable flow found derived from one. Each set is
    asked in turn: a union per call cost as much as every lane variable of the function (quadratic in a kernel
    of thousands of them)."""
    sets = (THREAD_SOURCES, LANE_SOURCES, flow.thread, flow.lane)
    return any(src.kind(i) == IDENT and any(src.src(i) in names for names in sets) for i in src.range_code(start, end))


def lane_ops(src: Source, start: int, end: int, flow: Flow) -> Iterator[LaneOp]:
    """Warp widths (32, 31, 0x1f, 5, or a warp-size constant of 32) applied to thread indexes or ``blockDim``."""
    found = [(i, parse_int(src.src(i)), src.prev(i)) for i in src.kind_range("NUMBER", start, end)
             if not src.tokens[i].pp]  # numbers are always code tokens
    names = {**flow.loose, **flow.widths}
    if names:
        found += [(i, *_constant_operand(src, i, names[src.src(i)])) for i in src.idents(frozenset(names), start, end)]
        found.sort()
    for i, value, op in found:
        kind = _op_kind(src.src(op), value)
        if kind is None:
            continue
        if src.kind(i) == IDENT and src.src(i) not in flow.widths and not LANEISH().search(assigned_name(src, i)):
            continue  # a constant of 32 with no warp in its name, outside warp-synchronous code: a lane only if named
        a = _operand_start(src, op)
        if kind == "warp" and mentions(src, a, op, frozenset({"blockDim"})):
            kind = "count"
        elif kind == "warp" and src.kind(i) == IDENT and not thread_derived(src, a, op, flow) and \
                src.src(i) in warp_constants(src):
            kind = "count"  # THREADS / WARP_SIZE: a constant named as the warp size divides threads into warps
        elif not thread_derived(src, a, op, flow):
            continue
        yield LaneOp(i, op, kind, assigned_name(src, i))


#: names that say "the warp size" (``WARP_SIZE``, ``kWarpSize``, ``THREADS_PER_WARP``...)
WARP_CONSTANT_NAME = lazy(r"(?i)^k?_?(warp|warp_?size|warpsz|warp_?width|threads_?per_?warp|warp_?threads|"
                          r"warp_?lanes|lanes_?per_?warp)$")


def warp_constants(src: Source) -> frozenset[str]:
    """Macros and constants of the file named as a warp size whose value is the literal 32 (cached per file)."""
    cached = src.cache.get("warp_constants")
    if cached is None:
        cached = src.cache["warp_constants"] = frozenset(
            name for name, toks in file_env(src).items()
            if WARP_CONSTANT_NAME().match(name) and len(toks) == 1 and parse_int(toks[0].src) == 32
            and not _sizes_a_tile(src, name))
    return cached


_TILES = frozenset({"thread_block_tile", "tiled_partition"})


def _sizes_a_tile(src: Source, name: str) -> bool:
    """``cg::thread_block_tile<kWarpSize>``: the constant is a 32-wide tile's size, which HIP supports inside a
    64-wide wavefront; lane arithmetic with it is then the tile's, not the wavefront's."""
    return any(src.src(src.prev(i)) == "<" and src.src(src.prev(i, 2)) in _TILES for i in src.positions(name))


def _constant_operand(src: Source, i: int, value: int = 32) -> tuple[int | None, int]:
    """(value, operator index) of the warp-size constant at ``i``: ``x / WARP_SIZE`` is (32, ``/``),
    ``x & (WARP_SIZE - 1)`` is (31, ``&``), ``x >> LOG_WARP`` is (5, ``>>``); a qualified name (``rt::kWarpSize``)
    as the name alone."""
    prev, nxt = src.prev(qualified_start(src, i)), src.next(i)
    if value == 32 and src.src(prev) == "(" and src.src(nxt) == "-" and src.src(src.next(nxt)) == "1":
        close = src.next(nxt, 2)
        if src.src(close) == ")" and src.pairs.get(prev) == close:
            return 31, src.prev(prev)
    return value, prev


#: names of a log2 warp width (``LOG_WARP``, ``kWarpShift``, ``WARP_BITS``): 5 stands for 32 only in a shift
_LOG_NAME = lazy(r"(?i)log|shift|bits")


def width_constants(src: Source) -> dict[str, int]:
    """Every constant of the file and its headers that may stand for the warp width, whatever its name: value
    32 (``kLanes``, ``THREADS_PER_WARP``, ``enum { kWarpThreads = 32 }``), or 5 named as a log or shift
    (``LOG_W``), less the sizes of cooperative-groups tiles. Whether a use is the warp width is the use's
    context to say (:func:`function_widths`). Cached per file."""
    cached: dict[str, int] | None = src.cache.get("width_constants")
    if cached is None:
        env = file_env(src)
        cached = {}
        for name, toks in env.items():
            value = parse_int(toks[0].src) if len(toks) == 1 else evaluate(toks, env) if len(toks) <= 9 else None
            if (value == 32 or (value == 5 and _LOG_NAME().search(name))) and not _sizes_a_tile(src, name):
                cached[name.rpartition("::")[2]] = value
        src.cache["width_constants"] = cached
    return cached


def function_widths(src: Source, fn: Function) -> tuple[dict[str, int], dict[str, int]]:
    """(widths, loose) of ``fn``: the names that stand for the warp width in it. A warp-size constant
    (:func:`warp_constants`) always does; in warp-synchronous code so does any constant of 32 (or 5 named as a
    shift) and a template parameter of ``fn`` whose default or an explicit argument is 32
    (``template <int kWidth = kLanes>``, ``reduce<32>(v)``). Outside it, those are ``loose``: a lane or warp only
    where the result is named as one (``int lane = tid % kLanes``). Cached per function."""
    key = ("widths", fn.body_open)
    found: tuple[dict[str, int], dict[str, int]] | None = src.cache.get(key)
    if found is None:
        named = dict.fromkeys(warp_constants(src), 32)
        others = {**width_constants(src), **template_widths(src, fn)}
        sync = fn.name in warp_sync_functions(src)
        found = src.cache[key] = ({**others, **named}, {}) if sync else (named, others)
    return found


def template_widths(src: Source, fn: Function) -> dict[str, int]:
    """The template parameters of ``fn`` that are 32: by default (``int kWidth = 32``, ``= kLanes``) or in an
    explicit argument list (``warp_sum<32>(v)``, ``k<32><<<g, b>>>``, ``template float warp_sum<32>(float)``)."""
    key = ("template_widths", fn.body_open)
    cached: dict[str, int] | None = src.cache.get(key)
    if cached is not None:
        return cached
    env = file_env(src)
    found = _bound_to_32(src, template_params(src, fn), fn.name, env)
    record = enclosing_record(src, fn.name_index)
    if record is not None:  # template <typename T, int kLanes = 32> struct R { static constexpr int kWidth = kLanes; }
        keyword, name, open_ = record
        found.update(_bound_to_32(src, template_head(src, keyword), name, env))
        bound = {**env, **{n: [Token(NUMBER, "32", 0)] for n in found}}
        for at, value in declarations(src, open_, src.pairs[open_], const_only=True):
            if src.function_at(at) is None and evaluate(value, bound) == 32:
                found[src.src(at)] = 32
    src.cache[key] = found
    return found


def _bound_to_32(src: Source, params: list[tuple[str, Sequence[Token]]], name: str,
                 env: Mapping[str, Sequence[Token]]) -> dict[str, int]:
    """The template parameters of ``name`` that are 32 by default or in one of its explicit argument lists."""
    found: dict[str, int] = {}
    for k, (param, default) in enumerate(params):
        if default and evaluate(default, env) == 32:
            found[param] = 32
        for args in _explicit_arguments(src, name) if params else ():
            if k < len(args) and evaluate(args[k], env) == 32:
                found[param] = 32
    return found


def _explicit_arguments(src: Source, name: str) -> list[list[list[Token]]]:
    """The template argument lists written after ``name<`` in the file (cached per name)."""
    key = ("template_args", name)
    found: list[list[list[Token]]] | None = src.cache.get(key)
    if found is None:
        found = src.cache[key] = [
            [[src.tokens[k] for k in src.range_code(a, b)] for a, b in angle_args(src, src.next(i))]
            for i in src.idents(frozenset({name})) if src.src(src.next(i)) == "<"]
    return found


def width_env(src: Source, fn: Function | None) -> dict[str, Sequence[Token]]:
    """The file's constants with the template parameters of ``fn`` that are 32 bound to 32."""
    env = file_env(src)
    if fn is None:
        return dict(env)
    return {**env, **{n: [Token(NUMBER, str(v), 0)] for n, v in template_widths(src, fn).items()}}


def qualified_start(src: Source, i: int) -> int:
    """The first token of the qualified name that ends at ``i``: ``a::b::NAME`` -> ``a`` (``::NAME`` -> ``::``)."""
    while src.src(src.prev(i)) == "::":
        before = src.prev(i, 2)
        i = before if src.kind(before) == IDENT else src.prev(i)
        if src.kind(before) != IDENT:
            break
    return i


def _op_kind(op: str, value: int | None) -> str | None:
    table = {("&", 31): "lane", ("%", 32): "lane", ("/", 32): "warp", (">>", 5): "warp", ("<", 32): "compare",
             (">=", 32): "compare"}
    return table.get((op, value)) if value is not None else None


def assigned_name(src: Source, i: int) -> str:
    """Name on the left of the ``=`` of the statement containing token ``i`` ("" if none)."""
    j = src.prev(i)
    depth = 0
    while j >= 0:
        s = src.src(j)
        if s in (")", "]") and j in src.pairs:
            j = src.prev(src.pairs[j])
            continue
        if s in (";", "{", "}", ",") or (s == "(" and depth == 0):
            return ""
        if s == "=" and src.kind(src.prev(j)) == IDENT:
            return src.src(src.prev(j))
        j = src.prev(j)
    return ""


def _declared_type(src: Source, name_index: int) -> str:
    words = []
    j = src.prev(name_index)
    while j >= 0 and src.kind(j) == IDENT and src.src(j) not in ("return", "case"):
        words.append(src.src(j))
        j = src.prev(j)
    if src.is_punct(j, "*", "&"):
        return ""
    return " ".join(reversed(words))


def analyse(src: Source, fn: Function) -> Flow:
    flow = Flow()
    flow.widths, flow.loose = function_widths(src, fn)
    _params(src, fn, flow)
    flow.warp_sync = any("volatile" in t and t.endswith("*") for t in flow.types.values())
    tokens, srcs = src.tokens, src.token_texts
    codes = src.range_code(fn.body_open + 1, fn.body_close)
    last = len(codes) - 1
    for k, i in enumerate(codes):
        tok = tokens[i]
        if tok.pp:
            continue
        text, kind = srcs[i], tok.kind
        if kind == IDENT and text in WARP_PRIMITIVES:
            flow.warp_sync = True
        if text == "volatile":
            flow.warp_sync = flow.warp_sync or _volatile_shared(src, i)
        if text == "=" and kind == PUNCT:
            _assignment(src, i, flow)
        elif kind == IDENT and (srcs[codes[k + 1]] if k < last else src.src(src.next(i))) in (";", ",", "[", "="):
            _declaration(src, i, flow)  # codes[k + 1] is src.next(i): the next code token, read from the range
    return flow


def _volatile_shared(src: Source, i: int) -> bool:
    """``volatile T* p`` in device code: the warp-synchronous shared-memory idiom."""
    return src.src(src.next(i, 2)) == "*" or src.src(src.next(i, 3)) == "*"


def _params(src: Source, fn: Function, flow: Flow) -> None:
    for i in src.range_code(fn.params_open + 1, fn.params_close):
        if src.kind(i) == IDENT and src.src(src.next(i)) in (",", ")", "="):
            _declaration(src, i, flow, allow_pointer=True)


def _declaration(src: Source, i: int, flow: Flow, allow_pointer: bool = True) -> None:
    words = []
    j = src.prev(i)
    pointer = False
    while j >= 0 and (src.kind(j) == IDENT or src.is_punct(j, "*", "&", "::")):
        if src.is_punct(j, "*", "&"):
            pointer = True
        else:
            words.append(src.src(j))
        j = src.prev(j)
    words = [w for w in reversed(words) if w not in ("return", "case", "else", "do")]
    if not words:
        return
    name = src.src(i)
    flow.types.setdefault(name, " ".join(words) + (" *" if pointer else ""))
    if "volatile" in words:
        flow.volatile.add(name)


def _assignment(src: Source, eq: int, flow: Flow) -> None:
    name_i = src.prev(eq)
    if src.kind(name_i) != IDENT:
        return
    name = src.src(name_i)
    a, b = initialiser(src, eq)
    ops = list(lane_ops(src, a, b, flow))
    if holds_ballot(src, a, b, flow.ballot):
        flow.ballot.add(name)
    elif is_full_mask_literal(src, a, b):
        flow.fullmask.add(name)
    elif any(o.kind == "lane" for o in ops) or warp_size_op(src, a, b, flow, ("&", "%")) or mentions(
        src, a, b, LANE_SOURCES
    ):
        flow.lane.add(name)
    elif any(o.kind == "warp" for o in ops) or warp_size_op(src, a, b, flow, ("/",)):
        flow.warp.add(name)
    elif thread_derived(src, a, b, flow):
        flow.thread.add(name)
    if src.kind(src.prev(name_i)) == IDENT:
        _declaration(src, name_i, flow)


def warp_size_op(src: Source, a: int, b: int, flow: Flow, ops: tuple[str, ...]) -> bool:
    """Whether [a, b) holds ``tid % warpSize``, ``tid & (warpSize - 1)``, ``tid / warpSize`` (the portable
    spellings) with one of ``ops``."""
    for i in src.range_code(a, b):
        if src.src(i) in ops and mentions(src, i, b, frozenset({"warpSize"})):
            return thread_derived(src, _operand_start(src, i), i, flow)
    return False


def flow_of(src: Source, fn: Function) -> Flow:
    """The (cached) flow facts of ``fn``."""
    key = ("flow", fn.body_open)
    if key not in src.cache:
        src.cache[key] = analyse(src, fn)
    result: Flow = src.cache[key]
    return result


def _warp_sync(src: Source, fn: Function) -> bool:
    """``flow_of(src, fn).warp_sync`` without the rest of the flow analysis (the same three tests)."""
    cached = src.cache.get(("flow", fn.body_open))
    if cached is not None:
        return bool(cached.warp_sync)
    params = Flow()
    _params(src, fn, params)
    if any("volatile" in t and t.endswith("*") for t in params.types.values()):
        return True
    start, end = fn.body_open + 1, fn.body_close
    if any(True for _ in src.idents(WARP_PRIMITIVES, start, end)):
        return True
    return any(not src.tokens[i].pp and _volatile_shared(src, i) for i in src.tokens_named(("volatile",), start, end))


def has_lane_literal(src: Source, fn: Function) -> bool:
    """Whether the body of ``fn`` holds what :func:`lane_ops` can report: 31, 32 or 5 outside directives, or a
    name that stands for the warp width there (:func:`function_widths`)."""
    start, end = fn.body_open, fn.body_close
    if any(not src.tokens[i].pp and parse_int(src.src(i)) in _LANE_VALUES
           for i in src.kind_range("NUMBER", start, end)):
        return True
    widths, loose = function_widths(src, fn)
    names = frozenset(widths) | frozenset(loose)
    return bool(names) and any(True for _ in src.idents(names, start, end))


_LANE_VALUES = frozenset({31, 32, 5})


def warp_sync_functions(src: Source) -> set[str]:
    """Names of device functions that use warp primitives, directly or through one call level; those the
    included headers define (``src.inherited``) count as direct."""
    if "warp_sync" in src.cache:
        cached: set[str] = src.cache["warp_sync"]
        return cached
    headers = set(src.inherited.warp_functions)
    if not headers and not src.positions("volatile") and not any(True for _ in src.idents(WARP_PRIMITIVES)):
        src.cache["warp_sync"] = set()  # _warp_sync needs one or the other in a function
        return set()
    direct = headers | {f.name for f in src.device_functions() if _warp_sync(src, f)}
    result = set(direct)
    uses = list(src.idents(direct))  # once: a query per function would cost len(direct) each time
    for f in src.device_functions():
        k = bisect.bisect_left(uses, f.body_open)
        if k < len(uses) and uses[k] < f.body_close:
            result.add(f.name)
    src.cache["warp_sync"] = result
    return result
