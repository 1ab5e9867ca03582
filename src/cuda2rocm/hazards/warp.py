"""K1xx: code that assumes a warp is 32 threads. AMD Instinct GPUs run 64-wide wavefronts."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator

from cuda2rocm.files.classify import is_header
from cuda2rocm.hazards.common import CUDA_GUIDE, FAMILY, GPU_SPECS, HIP_GUIDE, LANEISH, LAYER
from cuda2rocm.hazards.context import Hit, Source
from cuda2rocm.hazards.dims import block_threads
from cuda2rocm.hazards.flow import (
    SHUFFLES,
    WARP_CONSTANT_NAME,
    WARP_PRIMITIVES,
    Flow,
    LaneOp,
    assigned_name,
    flow_of,
    function_widths,
    has_lane_literal,
    lane_ops,
    mentions,
    qualified_start,
    warp_constants,
    warp_size_op,
    warp_sync_functions,
    width_constants,
    width_env,
)
from cuda2rocm.hazards.symbols import file_env, own_env, template_params, where
from cuda2rocm.lazyre import lazy
from cuda2rocm.model import Confidence, Edit, Severity
from cuda2rocm.rules import rule
from cuda2rocm.source.consteval import evaluate, parse_int
from cuda2rocm.source.edits import SpanIndex
from cuda2rocm.source.tokens import IDENT

_WHY_64 = ("AMD Instinct GPUs (CDNA: MI100, MI200, MI300, MI350) execute 64-wide wavefronts, so `warpSize` is 64. "
           "Code that hard-codes 32 computes wrong lane ids and warp ids, leaves half of every wavefront out of "
           "reductions and silently produces wrong results.")


def _one_of(names: Iterable[str]) -> tuple[str, ...]:
    """``names`` less those that contain another of them: a text holding one of ``names`` holds one of these."""
    found = set(names)
    return tuple(sorted(n for n in found if not any(m != n and m in n for m in found)))


#: the strings one of which every spelling of a literal that parse_int reads as 32 contains: 32 (decimal), 20 (hex
#: 0x20, 0x0020), 40 (octal 040), 100000 (binary 0b100000), or a digit separator ' (3'2, 0x2'0)
_SPELLINGS_OF_32 = ("32", "20", "40", "100000", "'")
#: "warp" in every letter case (identifiers are ASCII)
_WARP_ANY_CASE = tuple("".join(c) for c in itertools.product(*zip("warp", "WARP", strict=True)))


def _fix(src: Source, op: LaneOp, rule_id: str) -> tuple[Edit, ...]:
    sym = src.src(op.op)
    if op.kind == "lane" and sym == "&":
        return (src.replace(op.literal, "(warpSize - 1)", rule_id),)
    if sym in ("%", "/"):
        return (src.replace(op.literal, "warpSize", rule_id), *_round_up_fix(src, op, rule_id))
    if sym == ">>":
        return (src.replace_range(op.op, op.literal, "/ warpSize", rule_id),)
    return ()


def _round_up_fix(src: Source, op: LaneOp, rule_id: str) -> tuple[Edit, ...]:
    """``(n + 31) / 32``: the 31 is ``warpSize - 1`` too."""
    close = src.prev(op.op)
    if src.src(close) != ")" or close not in src.pairs:
        return ()
    nums = [i for i in src.range_code(src.pairs[close], close) if src.kind(i) == "NUMBER"]
    if len(nums) == 1 and src.src(nums[0]) == "31" and src.src(src.prev(nums[0])) == "+":
        return (src.replace(nums[0], "(warpSize - 1)", rule_id),)
    return () if not nums else (Edit(-1, -1, "", ""),)


def _constant(flow: Flow, name: str) -> str:
    """``a constant 32`` (or 5, a shift): what a name that stands for the warp width is."""
    return f"a constant {flow.widths.get(name) or flow.loose.get(name) or 32}"


def _origin(src: Source, flow: Flow, name: str) -> str:
    """`` (kLanes = 32 at include/cfg.h:3)``: where the value of a name that stands for the warp width comes
    from."""
    if name not in flow.widths or where(src, name):
        return _where(src, name)
    return f" (template parameter {name} = 32)"


@rule(
    "C2R-K101", "Literal 32/31/5 used as warp width for a lane index, warp id or warp count",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds lane indexes (`threadIdx.x & 31`, `tid % 32`), warp ids (`tid / 32`, `tid >> 5`) and warp "
         "counts (`blockDim.x / 32`) computed with a literal warp width, in warp-synchronous device code or "
         "assigned to a lane/warp variable; also `tid / WARP_SIZE` and `tid & (WARP_SIZE - 1)` where the "
         "constant is defined as 32 (C2R-K106 reports the definition; these uses carry no fix of their own). "
         "Ordinary 32s (tile widths, bit counts) are not reported.",
    why=_WHY_64,
    example="__global__ void k(float* out, float v) {\n  int lane = threadIdx.x & 31;\n  int warp = threadIdx.x / 32;\n"
            "  v += __shfl_xor_sync(0xffffffffffffffffULL, v, 1);\n  if (lane == 0) out[warp] = v;\n}\n",
    instead="Use `warpSize`: `lane = threadIdx.x & (warpSize - 1)`, `warp = threadIdx.x / warpSize`.\n"
            "__global__ void k(float* out, float v) {\n  int lane = threadIdx.x & (warpSize - 1);\n"
            "  int warp = threadIdx.x / warpSize;\n  v += __shfl_xor_sync(0xffffffffffffffffULL, v, 1);\n"
            "  if (lane == 0) out[warp] = v;\n}\n",
    references=(HIP_GUIDE, GPU_SPECS),
    # lane arithmetic is read in device functions only (device_functions() needs one of the qualifier tokens);
    # the warp multiples, host code included, need a token (or warp-size constant's value) that is 32
    requires=("__global__", "__device__", *_SPELLINGS_OF_32),
)
def check_lane_literals(src: Source) -> Iterator[Hit]:
    for fn in src.device_functions():
        if not has_lane_literal(src, fn):
            continue  # lane_ops has nothing to report: the flow analysis is not needed
        sync = warp_sync_functions(src)  # cached per file: computed only for files with a lane literal
        flow = flow_of(src, fn)
        for op in lane_ops(src, fn.body_open, fn.body_close, flow):
            if op.kind == "compare" or not (fn.name in sync or LANEISH().search(op.assigned or fn.name)):
                continue
            what = {"lane": "lane index", "warp": "warp id", "count": "warp count"}[op.kind]
            if src.kind(op.literal) == IDENT:  # a warp-size constant: fixing its definition fixes this
                name = src.src(op.literal)
                yield Hit("C2R-K101", op.literal, f"{what} computed with {name} ({_constant(flow, name)}) "
                          "assumes 32-thread warps (AMD wavefronts are 64 wide); see C2R-K106 at its definition"
                          + _origin(src, flow, name))
                continue
            edits = _fix(src, op, "C2R-K101")
            edits = () if any(e.start < 0 for e in edits) else edits
            yield Hit("C2R-K101", op.literal, f"{what} computed with literal {src.src(op.literal)} "
                      "assumes 32-thread warps (AMD wavefronts are 64 wide)", edits)
    yield from _warp_multiples(src)


#: names that count warps (``kWarps``, ``num_warps``, ``WARPS_PER_BLOCK``), not a warp size
_WARP_COUNT_NAME = lazy(r"(?i)warps")


def _warp_multiples(src: Source) -> Iterator[Hit]:
    """32 as the warp width where no thread index is involved: threads from a warp count (``kWarps * 32`` in
    ``__launch_bounds__``, a launch, a ``dim3``), a warp count from a thread count (``kWarps = kThreads / 32``),
    the block of a launch of a warp-synchronous kernel (``dim3 block(n * 32)``), and strides over lanes
    (``c += 32`` / ``k += 32 * step`` on a variable that starts at the lane). No fix: which 32s are warp widths
    is the author's to say (a tile of 32 threads stays 32 on AMD)."""
    numbers = [i for i in src.of_kind("NUMBER") if not src.tokens[i].pp and parse_int(src.src(i)) == 32]
    constants = frozenset(n for n, v in width_constants(src).items() if v == 32)
    strides = sorted(i for i in src.idents(constants) if src.src(src.prev(i)) == "+=") if constants else []
    for i in strides:  # c += WARP_SIZE over lanes: the constant's definition is C2R-K106's
        fn = src.function_at(i)
        if fn is None or not (src.src(i) in warp_constants(src) or (fn.is_device and src.src(i) in
                                                                   function_widths(src, fn)[0])):
            continue  # a constant of 32 named otherwise is a lane stride only in warp-synchronous code
        if _lane_stride(src, i):
            flow = flow_of(src, fn)
            yield Hit("C2R-K101", i, f"a stride of {src.src(i)} ({_constant(flow, src.src(i))}) over the lanes of a "
                      "warp skips or repeats elements on 64-wide wavefronts; see C2R-K106 at its definition"
                      + _origin(src, flow, src.src(i)))
    yield from _named_warp_counts(src, constants)
    if not numbers:
        return
    sync = warp_sync_functions(src)
    blocks = SpanIndex(_warp_sync_blocks(src, sync))
    seen: set[int] = set()
    for i in numbers:
        before, after = src.prev(i), src.next(i)
        b, a = src.src(before), src.src(after) if after < len(src.tokens) else ""
        other = before if b == "*" else after if a == "*" else -1
        operand = src.prev(before) if other == before else src.next(after) if other == after else -1
        name = src.src(operand) if 0 <= operand < len(src.tokens) and src.kind(operand) == IDENT else ""
        message = ""
        if name and _WARP_COUNT_NAME().search(name) and not WARP_CONSTANT_NAME().match(name):
            message = f"{name} * 32 turns a warp count into threads with 32-thread warps (AMD wavefronts are 64 wide)"
        elif b == "/" and _WARP_COUNT_NAME().search(assigned_name(src, i) or ""):
            message = (f"{assigned_name(src, i)} = ... / 32 counts warps of 32 threads (AMD wavefronts are 64 wide: "
                       "half as many)")
        elif i in blocks and (b == "*" or a == "*"):
            message = "the block of a warp-synchronous kernel is a multiple of 32 threads (AMD wavefronts are 64 wide)"
        elif _lane_stride(src, i):
            message = "a stride of 32 over the lanes of a warp skips or repeats elements on 64-wide wavefronts"
        if message and i not in seen:
            seen.add(i)
            yield Hit("C2R-K101", i, message)


def _named_warp_counts(src: Source, constants: frozenset[str]) -> Iterator[Hit]:
    """``constexpr int kWarps = kThreads / kLanes``: a warp count computed with a constant of 32, in a file with
    device code (anywhere in it: at file scope, in host code)."""
    if not constants or not (src.positions("__global__") or src.positions("__device__")):
        return
    for i in src.idents(constants):
        counted = assigned_name(src, i) if src.src(src.prev(qualified_start(src, i))) == "/" else ""
        if counted and _WARP_COUNT_NAME().search(counted) and not WARP_CONSTANT_NAME().match(counted):
            yield Hit("C2R-K101", i, f"{counted} = ... / {src.src(i)} counts warps of 32 threads (AMD wavefronts are "
                      f"64 wide: half as many); see C2R-K106 at its definition{_where(src, src.src(i))}")


def _where(src: Source, name: str) -> str:
    origin = where(src, name)
    return f" ({origin})" if origin else ""


def _warp_sync_blocks(src: Source, sync: set[str]) -> list[tuple[int, int]]:
    """Token ranges giving the block size of launches of warp-synchronous kernels: the launch's block argument
    and, when it is a plain name, the ``dim3 NAME(...)`` / ``NAME = ...`` that defines it in the same function."""
    out: list[tuple[int, int]] = []
    for launch in src.launches:
        if launch.name not in sync or len(launch.config) < 2:
            continue
        start, end = launch.config[1]
        out.append((start, end))
        code = src.range_code(start, end)
        if len(code) != 1 or src.tokens[code[0]].kind != IDENT:
            continue
        fn = src.function_at(launch.open_index)
        lo = fn.body_open if fn is not None else 0
        for j in src.idents(frozenset({src.src(code[0])}), lo, launch.open_index):
            nxt = src.next(j)
            if src.src(nxt) == "(" and nxt in src.pairs and src.src(src.prev(j)) == "dim3":
                out.append((nxt, src.pairs[nxt]))
            elif src.src(nxt) == "=":
                out.append((nxt, src.statement_end(nxt)))
    return out


def _lane_stride(src: Source, i: int) -> bool:
    """``v += 32`` or ``v += 32 * step`` where ``v`` starts at a lane index (``for (c = lane; ...; c += 32)``)."""
    j = src.prev(i)
    if src.src(j) != "+=":
        return False
    var = src.prev(j)
    if src.kind(var) != IDENT:
        return False
    fn = src.function_at(i)
    if fn is None:
        return False
    flow = flow_of(src, fn)
    name = src.src(var)
    if name in flow.lane:
        return True
    for k in src.idents(frozenset({name}), fn.body_open, var):  # int c = lane / k = lane * step
        nxt = src.next(k)
        if src.src(nxt) == "=":
            end = src.statement_end(nxt)
            init = src.range_code(nxt + 1, end)
            if any(src.src(t) in flow.lane or (src.kind(t) == IDENT and src.src(t).lower().startswith("lane"))
                   for t in init):
                return True
    return False


@rule(
    "C2R-K102", "Warp reduction or scan whose offsets stop at 16/32",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds shuffle loops `for (o = 16; o > 0; o >>= 1)` / `for (o = 1; o < 32; o <<= 1)` and unrolled "
         "shuffles whose first offset is 16: they combine only 32 lanes.",
    why=_WHY_64 + " A butterfly reduction that starts at offset 16 leaves lanes 0-31 and 32-63 as two separate "
                  "partial results.",
    example="__device__ float sum(float v) {\n  for (int o = 16; o > 0; o >>= 1)\n"
            "    v += __shfl_down_sync(0xffffffffffffffffULL, v, o);\n  return v;\n}\n",
    instead="Start at `warpSize / 2` (or loop to `warpSize`).\n__device__ float sum(float v) {\n"
            "  for (int o = warpSize / 2; o > 0; o >>= 1)\n"
            "    v += __shfl_down_sync(0xffffffffffffffffULL, v, o);\n  return v;\n}\n",
    references=(HIP_GUIDE,),
    # the check returns at once without a shuffle identifier (every name of SHUFFLES starts with __shfl)
    requires=_one_of(SHUFFLES),
)
def check_reduction_loops(src: Source) -> Iterator[Hit]:
    if not any(True for _ in src.idents(SHUFFLES)):
        return  # both shapes need a shuffle (the unrolled names are shuffles too)
    for fn in src.device_functions():
        for i in src.idents(frozenset({"for"}), fn.body_open, fn.body_close):
            yield from _for_loop(src, i)
        yield from _unrolled(src, fn.body_open, fn.body_close)


def _header_parts(src: Source, open_: int, close: int) -> list[list[int]]:
    """The code tokens of a ``for`` header split at its top-level ``;`` (three parts for a classic loop)."""
    parts: list[list[int]] = [[]]
    for i in src.top_level(open_ + 1, close):
        if src.src(i) == ";":
            parts.append([])
        else:
            parts[-1].append(i)
    return parts


def _loop_init(src: Source, init: list[int]) -> tuple[str, int] | None:
    """``[type words] var = NUMBER`` -> (var, index of the number); the type may be qualified
    (``std::uint32_t``, ``unsigned int``)."""
    if len(init) < 3 or src.src(init[-2]) != "=" or not src.is_number(init[-1]):
        return None
    var = init[-3]
    if src.kind(var) != IDENT or not all(
            src.kind(i) == IDENT or src.src(i) == "::" for i in init[:-3]):
        return None
    return src.src(var), init[-1]


def _for_loop(src: Source, for_i: int) -> Iterator[Hit]:
    """``for (T o = 16; o > 0; o >>= 1)`` / ``for (T d = 1; d < 32; d <<= 1)``, matched on the code tokens of
    the header (any type spelling, any spacing or comments)."""
    open_ = src.next(for_i)
    if src.src(open_) != "(" or open_ not in src.pairs:
        return
    close = src.pairs[open_]
    parts = _header_parts(src, open_, close)
    if len(parts) != 3:
        return
    if (init := _loop_init(src, parts[0])) is None:
        yield from _named_loop(src, parts, close)
        return
    var, init_i = init
    cond, step = [src.src(i) for i in parts[1]], [src.src(i) for i in parts[2]]
    if len(cond) != 3 or cond[0] != var:
        return
    cmp, bound_i = cond[1], parts[1][2]
    if not _shuffles_with(src, close, _loop_end(src, close), var):
        return
    if src.kind(bound_i) == IDENT and cmp in ("<", "<=") and step in _doubling(var):
        yield from _named_bound(src, parts[1][2:], init_i)
    start = parse_int(src.src(init_i))
    if start == 16 and cmp in (">", ">=") and step in _halving(var):
        yield Hit("C2R-K102", init_i, "shuffle reduction starts at offset 16: only 32 lanes are combined",
                  (src.replace(init_i, "warpSize / 2", "C2R-K102"),))
    elif (start == 1 and cmp in ("<", "<=") and src.is_number(bound_i)
          and (bound := parse_int(src.src(bound_i))) in (32, 16) and step in _doubling(var)):
        fix = "warpSize" if bound == 32 else "warpSize / 2"
        yield Hit("C2R-K102", bound_i, f"shuffle scan stops at {src.src(bound_i)}: only 32 lanes are combined",
                  (src.replace(bound_i, fix, "C2R-K102"),))


def _loop_end(src: Source, close: int) -> int:
    """The end of the body of the loop whose header closes at ``close``."""
    body = src.next(close)
    return src.statement_end(body) if src.src(body) != "{" else src.pairs.get(body, close)


def _named_loop(src: Source, parts: list[list[int]], close: int) -> Iterator[Hit]:
    """``for (int o = W / 2; o > 0; o >>= 1)`` with ``W`` a name of 32 (``kWidth >> 1``, ``HALF_WARP``): the
    start of a shuffle reduction written through a constant. No fix: the constant is its definition's."""
    init = parts[0]
    eq = next((k for k, i in enumerate(init) if src.src(i) == "="), None)
    if eq is None or eq == 0 or src.kind(init[eq - 1]) != IDENT:
        return
    var, expr = src.src(init[eq - 1]), init[eq + 1:]
    cond, step = [src.src(i) for i in parts[1]], [src.src(i) for i in parts[2]]
    if len(cond) != 3 or cond[0] != var or cond[1] not in (">", ">=") or step not in _halving(var):
        return
    fn = src.function_at(close)
    names = [i for i in expr if src.kind(i) == IDENT and src.src(i) != "warpSize"]
    if fn is None or not names or not _shuffles_with(src, close, _loop_end(src, close), var):
        return
    if evaluate([src.tokens[i] for i in expr], width_env(src, fn)) == 16:
        name = src.src(names[-1])
        yield Hit("C2R-K102", names[-1], f"shuffle reduction starts at {src.compact(expr[0], expr[-1] + 1)} = 16: "
                  "only 32 lanes are combined; see C2R-K106 at its definition" + _origin(src, flow_of(src, fn), name))


def _named_bound(src: Source, bound: list[int], init_i: int) -> Iterator[Hit]:
    """``for (int d = 1; d < W; d <<= 1)`` with ``W`` a name of 32: a scan that stops at 32 lanes."""
    fn = src.function_at(init_i)
    if fn is None or parse_int(src.src(init_i)) != 1 or src.src(bound[0]) == "warpSize":
        return
    names = [i for i in bound if src.kind(i) == IDENT]
    if names and evaluate([src.tokens[i] for i in bound], width_env(src, fn)) in (32, 16):
        name = src.src(names[-1])
        yield Hit("C2R-K102", names[-1], f"shuffle scan stops at {name} (a constant 32): only 32 lanes are "
                  "combined; see C2R-K106 at its definition" + _origin(src, flow_of(src, fn), name))


def _halving(var: str) -> list[list[str]]:
    return [[var, ">>=", "1"], [var, "/=", "2"], [var, "=", var, "/", "2"], [var, "=", var, ">>", "1"]]


def _doubling(var: str) -> list[list[str]]:
    return [[var, "<<=", "1"], [var, "*=", "2"], [var, "=", var, "*", "2"], [var, "=", var, "<<", "1"]]


def _shuffles_with(src: Source, start: int, end: int, var: str) -> bool:
    return any(any(mentions(src, a, b, {var}) for a, b in src.args(i)) for i in src.idents(SHUFFLES, start, end))


_UNROLLED = frozenset({"__shfl_down_sync", "__shfl_xor_sync", "__shfl_down", "__shfl_xor"})
assert _UNROLLED <= SHUFFLES


def _unrolled(src: Source, start: int, end: int) -> Iterator[Hit]:
    for i in src.idents(_UNROLLED, start, end):
        args = src.args(i)
        k = 2 if src.src(i).endswith("_sync") else 1
        if len(args) > k and src.compact(*args[k]) == "16":
            lit = src.range_code(*args[k])[0]
            yield Hit("C2R-K102", lit, "unrolled shuffle reduction starts at offset 16: only 32 lanes combined")


@rule(
    "C2R-K103", "Per-warp shared array sized by 32",
    family=FAMILY, severity=Severity.MEDIUM, confidence=Confidence.MEDIUM, layer=LAYER,
    what="Finds `__shared__ T s[32]` arrays indexed by a warp id or lane index: one slot per warp (or per "
         "lane of the final warp), sized for 32-thread warps.",
    why=_WHY_64 + " The number of warps per block and the lanes that read the partials both change, so "
                  "the second reduction stage reads slots that were never written.",
    example="__global__ void k(float* out, float v) {\n  __shared__ float part[32];\n"
            "  int warp = threadIdx.x / warpSize;\n  part[warp] = v;\n}\n",
    instead="Size the array by the maximum block size divided by `warpSize` known at compile time for the "
            "target (e.g. 1024/64 = 16 on AMD) and guard reads with the real warp count.\n"
            "__global__ void k(float* out, float v) {\n  __shared__ float part[1024 / 64];\n"
            "  int warp = threadIdx.x / warpSize;\n  part[warp] = v;\n}\n",
    references=(HIP_GUIDE, CUDA_GUIDE),
    # only arrays declared with a __shared__ identifier token are read
    requires=("__shared__",),
)
def check_per_warp_arrays(src: Source) -> Iterator[Hit]:
    for fn in src.device_functions():
        shared = list(src.idents(frozenset({"__shared__"}), fn.body_open, fn.body_close))
        if not shared:
            continue
        flow = flow_of(src, fn)
        for i in shared:
            end = src.statement_end(i)
            bracket = next((k for k in src.range_code(i, end) if src.src(k) == "["), None)
            if bracket is None or bracket not in src.pairs:
                continue
            width = src.compact(bracket + 1, src.pairs[bracket])
            constant = _warp_constant_size(src, bracket, flow)
            divisor = _warp_count_size(src, bracket, flow) if width != "32" and constant is None else None
            if width != "32" and constant is None and divisor is None:
                continue
            name = src.src(src.prev(bracket))
            if not (_indexed_per_warp(src, name, end, fn.body_close, flow.warp | flow.lane)
                    or (divisor is not None and _warp_storage(src, i, bracket))):
                continue
            size = src.next(bracket)
            message = f"shared array '{name}[{width}]' holds one slot per warp or lane; 32 assumes 32-thread warps"
            per_lane = _indexed_per_warp(src, name, end, fn.body_close, flow.lane, warp_ids=False)
            if divisor is not None:  # [THREADS / 32]: a slot per warp of 32 threads
                origin = _origin(src, flow, src.src(divisor)) if src.kind(divisor) == IDENT else ""
                yield Hit("C2R-K103", divisor, f"shared array '{name}[{width}]' holds one slot per 32-thread warp; "
                          f"on 64-wide wavefronts half of the slots are never written{origin}", covered=not per_lane)
            elif constant is not None:  # sized by a warp-size constant of 32: its definition is C2R-K106's
                yield Hit("C2R-K103", constant, f"{message} (a constant 32); see C2R-K106 at its definition"
                          + _origin(src, flow, src.src(constant)), covered=not per_lane)
            elif per_lane:
                # a slot per lane of a wavefront: 64 slots hold one per lane for both widths
                yield Hit("C2R-K103", size, message, (src.replace(size, "64", "C2R-K103"),))
            else:  # one slot per warp: 1024 / 32 slots are enough for 1024 / warpSize warps of any width >= 32
                yield Hit("C2R-K103", size, message, covered=True)


def _warp_storage(src: Source, start: int, bracket: int) -> bool:
    """``__shared__ typename WarpReduce::TempStorage temp[BLOCK / 32]``: the temporary storage of CUB's warp
    collectives (``cub::WarpReduce``/``WarpScan``, hipCUB's on AMD: one per 64-wide warp) is one slot per warp
    whatever indexes it."""
    return any(src.src(k) == "TempStorage" for k in src.range_code(start, bracket)) and (
        "WarpReduce" in src.text or "WarpScan" in src.text)


def _warp_constant_size(src: Source, bracket: int, flow: Flow) -> int | None:
    """The index of the name of 32 standing for the warp width (:func:`function_widths`) that is the whole size in
    ``[...]`` at ``bracket`` (``[WARP_SIZE]``, ``[rt::kWarpSize]``, ``[kLanes]`` in warp-synchronous code), or
    None."""
    code = src.range_code(bracket + 1, src.pairs[bracket])
    if not code or src.kind(code[-1]) != IDENT or flow.widths.get(src.src(code[-1])) != 32:
        return None
    return code[-1] if qualified_start(src, code[-1]) == code[0] else None


def _warp_count_size(src: Source, bracket: int, flow: Flow) -> int | None:
    """The divisor of a size that counts warps of 32 threads: ``[THREADS / 32]``, ``[BLOCK / kLanes]``,
    ``[(BLOCK + 31) / 32]``, ``[BLOCK >> LOG_W]``: the index of the 32 (or the name), or None."""
    code = src.range_code(bracket + 1, src.pairs[bracket])
    if len(code) < 3 or src.src(code[-2]) not in ("/", ">>"):
        return None
    last = code[-1]
    names = {**flow.loose, **flow.widths}  # the index or the storage says the slots are per warp
    value = parse_int(src.src(last)) if src.is_number(last) else names.get(src.src(last))
    if value != (32 if src.src(code[-2]) == "/" else 5):
        return None
    return last if src.kind(last) != IDENT or qualified_start(src, last) == code[-1] else None


def _indexed_per_warp(src: Source, name: str, start: int, end: int, vars_: set[str], warp_ids: bool = True) -> bool:
    """Whether ``name[...]`` is indexed by one of ``vars_`` (or a lane / warp-id expression) in [start, end);
    ``warp_ids=False``: by a lane index only."""
    kinds = ("lane", "warp") if warp_ids else ("lane",)
    for i in src.idents(frozenset({name}), start, end):
        j = src.next(i)
        if src.src(j) == "[" and j in src.pairs:
            a, b = j + 1, src.pairs[j]
            fn = src.function_at(i)
            flow = flow_of(src, fn) if fn is not None else None
            ops = lane_ops(src, a, b, flow) if flow is not None else iter(())
            if mentions(src, a, b, vars_ | {"__lane_id"}) or any(o.kind in kinds for o in ops):
                return True
            portable = ("&", "%", "/") if warp_ids else ("&", "%")  # threadIdx.x / warpSize: a warp id too
            if flow is not None and warp_size_op(src, a, b, flow, portable):
                return True
    return False


@rule(
    "C2R-K104", "Shuffle width 32",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds `__shfl*_sync(mask, v, x, 32)` calls whose width argument is the literal 32.",
    why=_WHY_64 + " With width 32 a 64-wide wavefront is split into two independent halves, so a reduction "
                  "ends with two partial results instead of one.",
    example="__device__ float bcast(float v) {\n  return __shfl_sync(0xffffffffffffffffULL, v, 0, 32);\n}\n",
    instead="Pass `warpSize` (or omit the width, it defaults to `warpSize`).\n"
            "__device__ float bcast(float v) {\n  return __shfl_sync(0xffffffffffffffffULL, v, 0, warpSize);\n}\n",
    references=(HIP_GUIDE,),
    # only calls of the SHUFFLES names are read (anywhere in the file)
    requires=_one_of(SHUFFLES),
)
def check_shuffle_width(src: Source) -> Iterator[Hit]:
    for i in src.idents(SHUFFLES):
        args = src.args(i)
        k = 3 if src.src(i).endswith("_sync") else 2
        if len(args) > k and src.compact(*args[k]) == "32":
            lit = src.range_code(*args[k])[0]
            yield Hit("C2R-K104", lit, f"{src.src(i)} with width 32 splits a 64-wide wavefront in two",
                      (src.replace(lit, "warpSize", "C2R-K104"),))
        elif len(args) > k and (name := _width_name(src, *args[k])) is not None:
            fn = src.function_at(i)
            flow = flow_of(src, fn) if fn is not None and fn.is_device else None
            if flow is not None and flow.widths.get(src.src(name)) == 32:
                yield Hit("C2R-K104", name, f"{src.src(i)} with width {src.src(name)} (a constant 32) splits a "
                          "64-wide wavefront in two; see C2R-K106 at its definition"
                          + _origin(src, flow, src.src(name)))


def _width_name(src: Source, start: int, end: int) -> int | None:
    """The index of the name that is the whole of [start, end) (``kWidth``, ``cfg::kLanes``), or None."""
    code = src.range_code(start, end)
    if not code or src.kind(code[-1]) != IDENT or qualified_start(src, code[-1]) != code[0]:
        return None
    return code[-1]


@rule(
    "C2R-K105", "Block size that is a multiple of 32 but not of 64, launching warp-synchronous code",
    family=FAMILY, severity=Severity.MEDIUM, confidence=Confidence.MEDIUM, layer=LAYER,
    what="Finds launches `k<<<g, 32>>>` / `dim3(96)` whose block size is an odd multiple of 32, when the kernel "
         "uses warp primitives.",
    why="A block of 32 (or 96, 160...) threads fills half of its last 64-wide wavefront: warp-level code that "
        "assumes every warp is full reads inactive lanes, and half of the SIMD lanes sit idle.",
    example="__global__ void k(float* p) { p[threadIdx.x] = __shfl_down_sync(0xffffffffffffffffULL, p[0], 1); }\n"
            "void run(float* p) { k<<<1, 32>>>(p); }\n",
    instead="Use block sizes that are multiples of 64 (or of `warpSize` queried at run time).\n"
            "__global__ void k(float* p) { p[threadIdx.x] = __shfl_down_sync(0xffffffffffffffffULL, p[0], 1); }\n"
            "void run(float* p) { k<<<1, 64>>>(p); }\n",
    references=(GPU_SPECS,),
    # only kernel launches are read, and find_launches() needs a <<< token
    requires=("<<<",),
)
def check_half_wave_blocks(src: Source) -> Iterator[Hit]:
    sync = warp_sync_functions(src)
    if not sync:
        return  # only launches of warp-synchronous kernels are reported
    env = file_env(src)
    for launch in src.launches:
        if launch.name not in sync or len(launch.config) < 2:
            continue
        size = block_threads(src, launch.config[1], env)
        if size is not None and size % 32 == 0 and size % 64 != 0:
            yield Hit("C2R-K105", src.range_code(*launch.config[1])[0],
                      f"block of {size} threads fills only half of its last 64-wide wavefront")




@rule(
    "C2R-K106", "Warp size hard-coded as a constant",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds `#define WARP_SIZE 32`, `constexpr int kWarpSize = 32;` and similar constants named as a warp "
         "size whose value is 32; and a constant of 32 with another name (`constexpr int kLanes = 32`, "
         "`enum { kThreads = 32 }`) that the file uses as the warp width (a use C2R-K101..K104 report), once at "
         "its definition.",
    why=_WHY_64 + " Every use of the constant inherits the wrong width.",
    example="#define WARP_SIZE 32\n",
    instead="Use `warpSize` in device code, or a per-target constant: `#if defined(__GFX9__)` 64 / else 32, or "
            "`__AMDGCN_WAVEFRONT_SIZE` on older ROCm.\n#define WARP_SIZE warpSize\n",
    references=(HIP_GUIDE,),
    # WARP_CONSTANT_NAME matches only (ASCII) names that hold "warp" in some letter case; another name is reported
    # only where a hit of K101..K104 uses it, and those are all in device functions (a qualifier token)
    requires=(*_WARP_ANY_CASE, "__global__", "__device__"),
)
def check_warp_constants(src: Source) -> Iterator[Hit]:
    used: dict[str, int] | None = None  # the first line each other constant of 32 is used as the warp width on
    seen: set[int] = set()  # an enumerator is in the environment twice: kLanes and Kind::kLanes
    for name, toks in own_env(src).items():  # the definitions in this file (inherited ones are reported where they are)
        if len(toks) != 1 or parse_int(toks[0].src) != 32:
            continue
        index = next(i for i in src.code if src.tokens[i] is toks[0] or src.tokens[i].offset == toks[0].offset)
        if index in seen:
            continue
        seen.add(index)
        if WARP_CONSTANT_NAME().match(name):
            edits = (src.replace(index, "warpSize", "C2R-K106"),) if _define_fixable(src, name, index) else ()
            yield Hit("C2R-K106", index, f"'{name}' hard-codes a 32-thread warp", edits)
            continue
        used = _width_uses(src) if used is None else used
        if name.rpartition("::")[2] in used:  # kLanes = 32 used as the warp width: reported once, here, no fix
            yield Hit("C2R-K106", index, f"'{name}' = 32 is used as the warp width (line "
                      f"{used[name.rpartition('::')[2]]}): it hard-codes a 32-thread warp")


def _width_uses(src: Source) -> dict[str, int]:
    """The names that a warp-width hit of C2R-K101..K104 points at, with the line of the first."""
    found: dict[str, int] = {}
    hits = itertools.chain(check_lane_literals(src), check_reduction_loops(src), check_per_warp_arrays(src),
                           check_shuffle_width(src))
    for hit in sorted(hits, key=lambda h: h.index):
        if src.kind(hit.index) != IDENT:
            continue
        name, line = src.src(hit.index), src.loc(hit.index)[0]
        found.setdefault(name, line)
        fn = src.function_at(hit.index)
        for param, default in template_params(src, fn) if fn is not None else ():
            if param == name:  # template <int kW = kLanes>: the use of kW is one of kLanes
                for t in default:
                    found.setdefault(t.src, line)
    return found


#: a statement with one of these needs a constant expression, which ``warpSize`` is not on every ROCm
_CONSTANT_CONTEXT = frozenset({"__shared__", "constexpr", "static_assert", "case", "template", "static",
                               "__launch_bounds__", "alignas"})


def _define_fixable(src: Source, name: str, value: int) -> bool:
    """``#define WARP_SIZE 32`` can become ``#define WARP_SIZE warpSize`` when the macro is defined in this
    (non-header) file, used at least once, and every use is run-time device code: ``warpSize`` is a device
    variable, not a constant expression, on newer ROCm, and does not exist in host code."""
    if not src.tokens[value].pp or is_header(src.path):
        return False  # a constexpr/const variable, or a header that other files may use differently
    uses = [i for i in src.positions(name) if not src.tokens[i].pp]
    if len(uses) != len([i for i in src.positions(name) if src.kind(i) == IDENT]) - 1:
        return False  # the name also appears in another directive (#if WARP_SIZE == 32, a second #define)
    return bool(uses) and all(_runtime_device_use(src, i) for i in uses)


def _runtime_device_use(src: Source, i: int) -> bool:
    fn = src.function_at(i)
    if fn is None or not fn.is_device:
        return False  # host code or file scope
    before, after = src.src(src.prev(i)), src.src(src.next(i))
    if after in (">", ">>") or (before == "<" and after == ","):
        return False  # (perhaps) a template argument
    j = src.prev(i)
    while j > fn.body_open and src.src(j) not in (";", "{", "}"):
        if src.src(j) in _CONSTANT_CONTEXT or (src.src(j) == "[" and src.pairs.get(j, -1) > i
                                               and _declares(src, src.prev(j))):
            return False  # a constant-expression context or an array size: T a[WARP_SIZE]
        j = src.prev(j)
    end = src.statement_end(i)
    return not any(src.src(k) in _CONSTANT_CONTEXT for k in src.range_code(i, end))


def _declares(src: Source, name: int) -> bool:
    """``T name`` / ``T* name``: the identifier at ``name`` is being declared (its array size follows)."""
    before = src.prev(name)
    if src.kind(name) != IDENT or src.src(before) in ("return", "case", "else", "do"):
        return False
    return src.kind(before) == IDENT or src.is_punct(before, "*", "&")


@rule(
    "C2R-K107", "Thread index compared with 32 to select the first warp",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.MEDIUM, layer=LAYER,
    what="Finds `if (tid < 32)` (and `>= 32`) in warp-synchronous code: the classic \"last warp\" tail of a "
         "shared-memory reduction or a single-warp stage.",
    why=_WHY_64 + " `tid < 32` selects half a wavefront; the warp-synchronous tail then mixes lanes that are "
                  "still running with lanes that skipped it.",
    example="__device__ void tail(volatile float* s, int tid) { s[tid] += s[tid + 16]; }\n"
            "__global__ void k(float* s) {\n  int tid = threadIdx.x;\n  if (tid < 32) tail(s, tid);\n}\n",
    instead="Compare with `warpSize` and make the tail loop over `warpSize / 2 .. 1` with `__syncwarp()`/shuffles.\n"
            "__device__ void tail(volatile float* s, int tid) { s[tid] += s[tid + warpSize / 2]; }\n"
            "__global__ void k(float* s) {\n  int tid = threadIdx.x;\n  if (tid < warpSize) tail(s, tid);\n}\n",
    references=(HIP_GUIDE,),
    # only warp-synchronous functions are read: warp_sync_functions() is empty without a volatile token or an
    # identifier of WARP_PRIMITIVES
    requires=("volatile", *_one_of(WARP_PRIMITIVES)),
)
def check_first_warp(src: Source) -> Iterator[Hit]:
    sync = warp_sync_functions(src)
    for fn in src.device_functions():
        if fn.name not in sync or not has_lane_literal(src, fn):
            continue
        for op in lane_ops(src, fn.body_open, fn.body_close, flow_of(src, fn)):
            if op.kind == "compare":
                yield Hit("C2R-K107", op.literal, "thread index compared with 32 selects half a 64-wide wavefront")
