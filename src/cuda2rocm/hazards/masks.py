"""K2xx: 32-bit lane masks. AMD wavefronts have 64 lanes, so masks and ballots are 64-bit."""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.files.classify import is_header
from cuda2rocm.hazards.common import FAMILY, HIP_GUIDE, LAYER
from cuda2rocm.hazards.context import Hit, Source
from cuda2rocm.hazards.flow import (
    BALLOTS,
    LANE_SOURCES,
    SYNC_MASKED,
    THREAD_SOURCES,
    flow_of,
    holds_ballot,
    is_full_mask_literal,
    mentions,
)
from cuda2rocm.hazards.symbols import define_sites, file_env, initialiser, type_aliases, where
from cuda2rocm.mapping import load as load_mapping
from cuda2rocm.model import Applicability, Confidence, Severity
from cuda2rocm.rules import rule
from cuda2rocm.source.consteval import parse_int
from cuda2rocm.source.directives import directives
from cuda2rocm.source.structure import Function
from cuda2rocm.source.tokens import IDENT

FULL_MASK_64 = "0xffffffffffffffffULL"
_WHY = ("A wavefront on AMD Instinct GPUs has 64 lanes: `__ballot`, `__activemask` and the warp-sync masks are "
        "64-bit (`unsigned long long`). A 32-bit mask names only lanes 0-31, so lanes 32-63 are left out of the "
        "shuffle/vote or their bits are truncated away; recent ROCm releases reject non-64-bit masks at compile time.")
_THIRTY_TWO_BIT = frozenset({"unsigned", "unsigned int", "uint32_t", "int", "int32_t", "uint", "unsigned int32_t"})
_UNSIGNED_32 = frozenset({"unsigned", "unsigned int", "uint32_t", "uint"})


@rule(
    "C2R-K201", "32-bit full lane mask passed to a warp-sync intrinsic",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds `0xffffffff` (or `~0u`, or a variable/macro holding it) as the mask of `__shfl*_sync`, "
         "`__ballot_sync`, `__any_sync`, `__all_sync`, `__syncwarp`, `__match_*_sync` and `__reduce_*_sync`, in code "
         "and in `#define` bodies. The fix widens the literal; a full-mask macro whose every use in a source file is "
         "such a mask is widened at its definition (a macro also used as a number, or defined in a header, is "
         "reported only).",
    why=_WHY,
    example="__device__ float f(float v) { return __shfl_xor_sync(0xffffffff, v, 1); }\n",
    instead="Pass a full 64-bit mask (`0xffffffffffffffffULL`, or `__activemask()`); on NVIDIA the value is "
            "truncated to the same 32-bit mask.\n"
            "__device__ float f(float v) { return __shfl_xor_sync(0xffffffffffffffffULL, v, 1); }\n",
    references=(HIP_GUIDE,),
    # only calls of the SYNC_MASKED names are read (anywhere in the file)
    requires=tuple(sorted(SYNC_MASKED)),
)
def check_full_masks(src: Source) -> Iterator[Hit]:
    macros = full_mask_names(src)
    calls = sorted([*src.idents(SYNC_MASKED), *_in_macro_bodies(src)])
    fixable = _mask_only_macros(src, calls, macros)
    fixed: set[str] = set()
    for i in calls:
        args = src.args(i)
        if not args:
            continue
        a, b = args[0]
        code = src.range_code(a, b)
        if not code:
            continue
        fn = src.function_at(i)
        names = (flow_of(src, fn).fullmask if fn is not None else set()) | macros
        if is_full_mask_literal(src, a, b):
            yield Hit("C2R-K201", code[0], f"32-bit mask to {src.src(i)} leaves out lanes 32-63",
                      (src.replace_range(code[0], code[-1], FULL_MASK_64, "C2R-K201"),))
        elif len(code) == 1 and src.src(code[0]) in names:
            name = src.src(code[0])
            edits = (src.replace(fixable[name], FULL_MASK_64, "C2R-K201"),) \
                if name in fixable and name not in fixed else ()
            if edits:
                fixed.add(name)
            yield Hit("C2R-K201", code[0], f"'{name}' is a 32-bit full mask: {src.src(i)} leaves out "
                      "lanes 32-63", edits, covered=name in fixable and not edits)


def full_mask_names(src: Source) -> set[str]:
    """The macros and constants of the file and its headers whose value is a 32-bit full mask
    (``#define FULL_MASK 0xffffffffu``, ``constexpr unsigned kFull = 0xffffffff``; cached per file)."""
    found: set[str] | None = src.cache.get("full_mask_names")
    if found is None:
        found = src.cache["full_mask_names"] = {
            n.rpartition("::")[2] for n, toks in file_env(src).items() if len(toks) == 1 and _is_full(toks[0].src)}
    return found


def _in_macro_bodies(src: Source) -> list[int]:
    """Calls of the mask-taking intrinsics inside ``#define`` bodies (``#define SHFL(v, m)
    __shfl_xor_sync(0xffffffff, v, m)``): the mask is read there as in code."""
    found: list[int] = []
    for d in directives(src.tokens):
        if d.word == "define":
            found.extend(k for k in d.args if src.kind(k) == IDENT and src.src(k) in SYNC_MASKED
                         and src.src(src.next(k)) == "(")
    return found


def _mask_only_macros(src: Source, calls: list[int], macros: set[str]) -> dict[str, int]:
    """The full-mask macros defined in this file whose every use in it is the mask of one of ``calls``: name ->
    the value token of the definition. Widening such a definition changes nothing but the masks (a use as a
    number, ``x & FULL``, would change), so it is a safe fix. A header's macros may be used elsewhere: only a
    source file's own are fixed."""
    if not macros or is_header(src.path):
        return {}
    own = {src.src(name): body for name, body in define_sites(src)}
    masks = {a for i in calls if (args := src.args(i)) for a in src.range_code(*args[0])[:1]}
    out: dict[str, int] = {}
    for name in macros & own.keys():
        body = own[name]
        sites = [n for n, _ in define_sites(src) if src.src(n) == name]
        uses = [k for k in src.positions(name) if k not in sites]
        if len(sites) == 1 and len(body) == 1 and uses and all(k in masks for k in uses):
            value = [k for k in src.positions(body[0].src) if src.tokens[k].offset == body[0].offset]
            if value:
                out[name] = value[0]
    return out



def _is_full(text: str) -> bool:
    return parse_int(text) == 0xFFFFFFFF and not text.lower().endswith("ll")


@rule(
    "C2R-K202", "Ballot or active mask stored in a 32-bit integer",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds `unsigned b = __ballot_sync(...)`, `uint32_t m = __activemask()` and similar declarations that "
         "keep a wavefront-wide mask in 32 bits.",
    why=_WHY,
    example="__device__ int f(bool p) { unsigned b = __ballot_sync(0xffffffffffffffffULL, p); return b != 0; }\n",
    instead="Store it in `unsigned long long` (or `uint64_t`); on NVIDIA the upper half is simply zero.\n"
            "__device__ int f(bool p) { unsigned long long b = __ballot_sync(0xffffffffffffffffULL, p); "
            "return b != 0; }\n",
    references=(HIP_GUIDE,),
    # the check returns at once without a token named as one of BALLOTS
    requires=tuple(sorted(BALLOTS)),
)
def check_ballot_storage(src: Source) -> Iterator[Hit]:
    if not src.tokens_named(BALLOTS):
        return  # every hit stores a ballot call
    aliases = type_aliases(src)
    for fn in src.device_functions():
        for eq in src.tokens_named(("=",), fn.body_open, fn.body_close):  # '=' is always a code token
            if src.kind(eq) != "PUNCT":
                continue
            a, b = initialiser(src, eq)
            if not _ballot_call(src, a, b):
                continue
            words = _type_words(src, src.prev(eq))
            core = [w for w in words if src.src(w) not in _QUALIFIERS]
            type_ = " ".join(src.src(w) for w in core)
            if aliases.get(type_, type_) not in _THIRTY_TWO_BIT:
                continue
            edits = (src.replace_range(core[0], core[-1], "unsigned long long", "C2R-K202"),) \
                if type_ in _UNSIGNED_32 else ()
            alias = f" ({type_} is {aliases[type_]})" if type_ in aliases else ""
            # unsafe: the wider type changes `~b`, shifts, overflow and printf formats on NVIDIA too
            yield Hit("C2R-K202", core[0], f"'{type_}'{alias} keeps only 32 of the 64 bits of a wavefront mask",
                      edits, applicability=Applicability.UNSAFE)
        yield from _returned_ballots(src, fn, aliases)


_QUALIFIERS = frozenset({"const", "static", "volatile"})
_FUNCTION_WORDS = frozenset({"__device__", "__host__", "__global__", "__forceinline__", "__noinline__", "inline",
                             "static", "constexpr", "extern", "const", "volatile"})


def _returned_ballots(src: Source, fn: Function, aliases: dict[str, str]) -> Iterator[Hit]:
    """``__device__ unsigned vote(bool p) { return __ballot_sync(m, p); }``: a ballot returned as 32 bits."""
    words: list[str] = []
    j = src.prev(fn.name_index)
    while src.kind(j) == IDENT:
        if src.src(j) not in _FUNCTION_WORDS:
            words.insert(0, src.src(j))
        j = src.prev(j)
    type_ = " ".join(words)
    if src.src(j) in ("*", "&", "::") or aliases.get(type_, type_) not in _THIRTY_TWO_BIT:
        return
    for r in src.idents(frozenset({"return"}), fn.body_open, fn.body_close):
        end = src.statement_end(r)
        if src.function_at(r) is fn and _ballot_call(src, r + 1, end):
            call = next(k for k in src.range_code(r + 1, end) if src.src(k) in BALLOTS)
            alias = f" ({type_} is {aliases[type_]})" if type_ in aliases else ""
            yield Hit("C2R-K202", call, f"{src.src(call)} returned as '{type_}'{alias} keeps only 32 of the 64 "
                      "bits of a wavefront mask")


def _ballot_call(src: Source, a: int, b: int) -> bool:
    return holds_ballot(src, a, b, set())


def _type_words(src: Source, name_i: int) -> list[int]:
    words: list[int] = []
    j = src.prev(name_i)
    while j >= 0 and src.kind(j) == "IDENT" and src.src(j) not in ("return",):
        words.insert(0, j)
        j = src.prev(j)
    if src.src(j) in ("*", "&", "::"):
        return []
    return words


_BIT_OPS = {"__popc": "__popcll", "__ffs": "__ffsll", "__clz": "", "__brev": "", "__fns": ""}


@rule(
    "C2R-K203", "32-bit bit operation (__popc/__ffs/__clz/__brev) on a ballot",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds `__popc`, `__ffs`, `__clz`, `__brev` and `__fns` applied to a ballot or active mask (directly "
         "or through a variable holding one).",
    why=_WHY + " `__popc` of a 64-bit ballot counts only the low 32 lanes; `__clz`/`__brev` answers change "
               "with the width.",
    example="__device__ int votes(bool p) { return __popc(__ballot_sync(0xffffffffffffffffULL, p)); }\n",
    instead="Use the 64-bit forms `__popcll`, `__ffsll`, `__clzll`, `__brevll` (for `__clz`/`__brev` adjust the "
            "arithmetic that assumed 32 bits).\n"
            "__device__ int votes(bool p) { return __popcll(__ballot_sync(0xffffffffffffffffULL, p)); }\n",
    references=(HIP_GUIDE,),
    # the operand must hold a ballot: a call of one of BALLOTS, or a variable that flow found assigned from one
    requires=tuple(sorted(BALLOTS)),
)
def check_ballot_bitops(src: Source) -> Iterator[Hit]:
    for fn in src.device_functions():
        calls = list(src.idents(frozenset(_BIT_OPS), fn.body_open, fn.body_close))
        ballots = flow_of(src, fn).ballot if calls else set()
        for i in calls:
            args = src.args(i)
            if len(args) != 1 or not holds_ballot(src, *args[0], ballots):
                continue
            wide = _BIT_OPS[src.src(i)]
            edits = (src.replace(i, wide, "C2R-K203"),) if wide else ()
            yield Hit("C2R-K203", i, f"{src.src(i)} on a wavefront mask sees only 32 of 64 lanes", edits)


@rule(
    "C2R-K204", "Lane mask built or compared in 32 bits",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.MEDIUM, layer=LAYER,
    what="Finds `1 << lane` / `1u << lane` with a lane index, and ballots compared with `0xffffffff` "
         "(\"all lanes voted\").",
    why=_WHY + " `1u << lane` is undefined for lanes 32-63, and `ballot == 0xffffffff` is never true when 64 "
               "lanes vote.",
    example="__device__ bool all_set(bool p) { return __ballot_sync(0xffffffffffffffffULL, p) == 0xffffffff; }\n",
    instead="Build masks with `1ull << lane` and compare with the 64-bit mask of active lanes (`__activemask()`), "
            "or use `__all_sync`.\n"
            "__device__ bool all_set(bool p) { return __all_sync(0xffffffffffffffffULL, p); }\n",
    references=(HIP_GUIDE,),
    # '1 << x' needs x a lane source or a lane variable, which flow derives only from threadIdx or a lane source;
    # a full-mask comparison needs a ballot (a BALLOTS call, or a variable assigned from one)
    requires=tuple(sorted(THREAD_SOURCES | LANE_SOURCES | BALLOTS)),
)
def check_mask_arithmetic(src: Source) -> Iterator[Hit]:
    for fn in src.device_functions():
        ops = src.tokens_named(("<<", "==", "!="), fn.body_open, fn.body_close)  # always code tokens
        if not ops:
            continue
        flow = flow_of(src, fn)
        full = full_mask_names(src) | flow.fullmask
        for i in ops:
            s = src.src(i)
            if s == "<<" and src.src(src.prev(i)).lower() in ("1", "1u") and _lane_operand(src, i, flow.lane):
                yield Hit("C2R-K204", src.prev(i), "32-bit lane bit '1 << lane' overflows for lanes 32-63")
            elif s in ("==", "!=") and (mask := _ballot_vs_full(src, i, flow.ballot, full)):
                named = "" if _is_full(mask) else f" ({mask} is {_full_value(src, mask)})"
                yield Hit("C2R-K204", i, f"ballot compared with a 32-bit full mask{named}")


def _lane_operand(src: Source, op: int, lanes: set[str]) -> bool:
    j = src.next(op)
    if src.src(j) == "(" and j in src.pairs:
        return mentions(src, j, src.pairs[j], lanes | LANE_SOURCES)
    return src.src(j) in lanes | LANE_SOURCES


def _ballot_vs_full(src: Source, op: int, ballots: set[str], full: set[str]) -> str:
    """The full mask (a literal, or a name of ``full``) that a ballot is compared with at ``op``, or ""."""
    left, right = src.prev(op), src.next(op)
    sides = [(left, right), (right, left)]
    for mask_side, other in sides:
        mask = src.src(mask_side)
        if _is_full(mask) or (src.kind(mask_side) == IDENT and mask in full):
            if src.src(other) == ")" and other in src.pairs:
                callee = src.prev(src.pairs[other])
                return mask if src.src(callee) in BALLOTS else ""
            return mask if src.src(other) in ballots else ""
    return ""


def _full_value(src: Source, name: str) -> str:
    """``FULL_MASK = 0xffffffffu at line 2`` (or "a 32-bit full mask" for a local)."""
    return where(src, name) or "a 32-bit full mask"


_WARP_COLLECTIVES = frozenset({"__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync",
                               "__reduce_or_sync", "__reduce_xor_sync", "__match_any_sync", "__match_all_sync"})


@rule(
    "C2R-K205", "Warp reduce/match intrinsic (__reduce_*_sync, __match_*_sync)",
    family=FAMILY, severity=Severity.MEDIUM, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds calls of `__reduce_add/min/max/and/or/xor_sync` and `__match_any/all_sync`, and says what the "
         "translation knows about each (from the CUDA->HIP mapping table): no HIP counterpart, or the ROCm "
         "release that added it.",
    why=_WHY + " HIP has no warp-reduce built-ins (`__reduce_*_sync`): the call does not compile and must become a "
               "shuffle reduction over `warpSize` lanes. `__match_*_sync` exists only from ROCm 6.2 and returns a "
               "64-bit lane mask.",
    example="__device__ int total(int v) { return __reduce_add_sync(0xffffffffffffffffULL, v); }\n",
    instead="Write the reduction with shuffles over `warpSize` lanes; keep match results in 64 bits.\n"
            "__device__ int total(int v) {\n  for (int o = warpSize / 2; o > 0; o /= 2) "
            "v += __shfl_xor_sync(0xffffffffffffffffULL, v, o);\n  return v;\n}\n",
    references=(HIP_GUIDE,),
    # only calls of the _WARP_COLLECTIVES names are read
    requires=tuple(sorted(_WARP_COLLECTIVES)),
)
def check_warp_collectives(src: Source) -> Iterator[Hit]:
    for i in src.idents(_WARP_COLLECTIVES):
        if src.is_call(i) and src.src(src.prev(i)) not in (".", "->", "::"):
            yield Hit("C2R-K205", i, _support(src.src(i), src.rocm))


def _support(name: str, rocm: str | None) -> str:
    entry = load_mapping().lookup(name)
    if entry is None or not entry.has_equivalent:
        hint = (entry.fallback or entry.note) if entry is not None else ""
        return f"{name} has no HIP counterpart: rewrite with shuffles over warpSize lanes" + (
            f" ({hint})" if hint else "")
    since = f" from ROCm {entry.hip_added}" if entry.hip_added is not None else ""
    missing = rocm is not None and not entry.available_in(rocm)
    return (f"{name}: HIP has {entry.hip}{since}" + (f", not in ROCm {rocm}" if missing else "")
            + "; on AMD its lane mask is 64-bit")
