"""K705: cooperative groups, at every site (header, group creation, every use of a group), with the wave64
meaning of each."""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.hazards.common import CUDA_GUIDE, FAMILY, HIP_GUIDE, LAYER, first_per_line
from cuda2rocm.hazards.context import Hit, Source
from cuda2rocm.mapping.version import parse_version
from cuda2rocm.model import Confidence, Severity
from cuda2rocm.rules import rule
from cuda2rocm.source.tokens import HEADER, IDENT

NAMESPACE = "cooperative_groups"
#: free functions usable unqualified after ``using namespace cooperative_groups;``
_FREE = frozenset({"this_thread_block", "this_grid", "this_multi_grid", "this_cluster", "tiled_partition",
                   "coalesced_threads", "binary_partition", "labeled_partition"})

_TILE = ("a tile is a slice of a 64-lane wavefront on AMD: tiles of 32 split each wavefront in two, "
         "sizes above 32 are allowed up to 64, and tile code that assumed 32 lanes per warp must be re-checked")
_LANES = "over the group's lanes, up to 64 per wavefront on AMD (masks and counts are 64-bit)"
_MEANING = {
    "tiled_partition": _TILE, "thread_block_tile": _TILE,
    "coalesced_threads": "the active lanes of a 64-wide wavefront on AMD: size() reaches 64",
    "coalesced_group": "the active lanes of a 64-wide wavefront on AMD: size() reaches 64",
    "binary_partition": "partitions a 64-wide wavefront on AMD", "labeled_partition": "partitions a 64-wide "
    "wavefront on AMD",
    "shfl": "shuffle " + _LANES, "shfl_up": "shuffle " + _LANES, "shfl_down": "shuffle " + _LANES,
    "shfl_xor": "shuffle " + _LANES, "ballot": "vote " + _LANES, "any": "vote " + _LANES, "all": "vote " + _LANES,
    "match_any": "match " + _LANES, "match_all": "match " + _LANES,
    "reduce": "collective " + _LANES, "inclusive_scan": "collective " + _LANES,
    "exclusive_scan": "collective " + _LANES,
    "this_grid": "grid group: a grid-wide sync needs co-resident blocks (C2R-K703)", "grid_group": "grid group: "
    "a grid-wide sync needs co-resident blocks (C2R-K703)",
    "this_cluster": "thread-block clusters do not exist on AMD (C2R-K503)",
    "cluster_group": "thread-block clusters do not exist on AMD (C2R-K503)",
    "meta_group_rank": "tile numbering: twice as many 32-lane tiles per 64-wide wavefront",
    "meta_group_size": "tile count: twice as many 32-lane tiles per 64-wide wavefront",
}
_DEFAULT = "HIP provides it in <hip/hip_cooperative_groups.h>; group sizes follow the 64-wide wavefront on AMD"


@rule(
    "C2R-K705", "Cooperative groups (tiles, coalesced groups, collectives)",
    family=FAMILY, severity=Severity.LOW, confidence=Confidence.MEDIUM, layer=LAYER,
    what="Finds `<cooperative_groups.h>` (and its sub-headers) and every use of cooperative groups, one report "
         "per line: group creation (`this_thread_block()`, `tiled_partition<N>()`, `coalesced_threads()`, "
         "`this_grid()`), namespace-qualified types and collectives (`cg::reduce`), and each member call on a "
         "group variable (`tile.shfl_down(...)`, `g.thread_rank()`), through namespace aliases and `using "
         "namespace` too. The message gives the wave64 meaning of the use.",
    why="HIP implements cooperative groups (`hip/hip_cooperative_groups.h`), but on AMD GPUs a wavefront has 64 "
        "lanes: `tiled_partition<32>` splits every wavefront in two, `coalesced_threads().size()` reaches 64, "
        "tile shuffles and votes span up to 64 lanes, and a grid sync needs co-resident blocks (C2R-K703). Code "
        "whose tile sizes or lane arithmetic were chosen for 32-lane warps needs review at each use.",
    example="#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(float* p) {\n"
            "  auto tile = cg::tiled_partition<32>(cg::this_thread_block());\n"
            "  p[threadIdx.x] = tile.shfl_down(p[threadIdx.x], 1);\n}\n",
    instead="Use `warpSize`-wide tiles where the algorithm needs a whole warp, or keep 32-lane tiles knowingly; "
            "plain shuffles over the full wavefront need no groups.\n"
            "__global__ void k(float* p) { p[threadIdx.x] = __shfl_down_sync(__activemask(), p[threadIdx.x], 1); }\n",
    references=(HIP_GUIDE, CUDA_GUIDE),
    # the headers, the namespace and its aliases (defined from it) all hold the namespace's name
    requires=("cooperative_groups",),
)
def check_cooperative_groups(src: Source) -> Iterator[Hit]:
    found, members = _uses(src)
    for i in first_per_line(src, iter(sorted(found))):
        yield Hit("C2R-K705", i, found[i])
    yield from _absent_members(src, members)


def _uses(src: Source) -> tuple[dict[int, str], dict[int, str]]:
    """(token -> K705 message of each use of cooperative groups, group variable token -> the member called on
    it)."""
    found: dict[int, str] = {}
    members: dict[int, str] = {}
    for i in src.of_kind(HEADER):
        name = src.tokens[i].src.strip("<>\"")
        if name == "cooperative_groups.h" or name.startswith("cooperative_groups/"):
            found[i] = f"{name}: {_DEFAULT}"
    names = {NAMESPACE} | _aliases(src)
    if not (found or any(src.positions(n) for n in names)):
        return found, members
    skip = _namespace_statements(src, names)
    groups: dict[str, list[tuple[int, int]]] = {}  # group variable -> scopes it is declared in
    for i in src.idents(frozenset(names)):
        if i in skip or src.src(src.next(i)) != "::":
            continue
        what = src.src(src.next(i, 2))
        found[i] = f"cooperative groups '{what}': {_MEANING.get(what, _DEFAULT)}"
        var = _declared(src, i)
        if var >= 0:
            groups.setdefault(src.src(var), []).append(_scope(src, var))
    if _using_namespace(src):
        for i in src.idents(_FREE):
            if src.src(src.prev(i)) not in ("::", ".", "->") and (src.is_call(i) or src.src(src.next(i)) == "<"):
                found.setdefault(i, f"cooperative groups '{src.src(i)}': {_MEANING.get(src.src(i), _DEFAULT)}")
                if src.src(src.prev(i)) == "=" and src.kind(src.prev(i, 2)) == IDENT:
                    groups.setdefault(src.src(src.prev(i, 2)), []).append(_scope(src, src.prev(i, 2)))
    for name, scopes in groups.items():
        for start, end in scopes:
            for i in src.idents(frozenset({name}), start, end):
                if src.src(src.next(i)) in (".", "->"):
                    what = src.src(src.next(i, 2))
                    members.setdefault(i, what)
                    found.setdefault(i, f"cooperative groups '{name}.{what}': {_MEANING.get(what, _DEFAULT)}")
    return found, members


_CHECKED = parse_version("5.2.3")
#: members CUDA's groups have that HIP 5.2.3's amd_hip_cooperative_groups.h (Debian 12) lacks on every group
#: type, checked 2026-12-02; newer ROCm releases were not verified
_ABSENT_IN_HIP52 = {
    "any": "warp vote over the group", "all": "warp vote over the group", "ballot": "warp vote over the group",
    "match_any": "match over the group", "match_all": "match over the group",
    "meta_group_rank": "the tile's index in its parent", "meta_group_size": "the number of tiles in the parent",
    "num_threads": "use size()", "dim_threads": "use blockDim", "group_dim": "use blockDim",
    "block_rank": "grid group block index", "num_blocks": "grid group block count",
    "block_index": "use blockIdx", "dim_blocks": "use gridDim",
}


def _absent_members(src: Source, members: dict[int, str]) -> Iterator[Hit]:
    """C2R-A103 for member calls the target's groups lack: the translation keeps them and hipcc rejects them
    ("no member named 'any' in thread_block_tile"). Only for a target of ROCm 5.2 or older, the release whose
    header was checked."""
    if src.rocm is None or parse_version(src.rocm) > _CHECKED:
        return
    for i, what in sorted(members.items()):
        member = src.next(i, 2)
        if what in _ABSENT_IN_HIP52 and src.src(src.next(member)) == "(":
            yield Hit("C2R-A103", member, f"cooperative groups '{src.src(i)}.{what}()' is not in ROCm {src.rocm}'s "
                      f"hip_cooperative_groups.h ({_ABSENT_IN_HIP52[what]}); kept, it does not compile there")


def _aliases(src: Source) -> set[str]:
    """``namespace cg = cooperative_groups;``."""
    out: set[str] = set()
    for i in src.idents(frozenset({NAMESPACE})):
        if src.src(src.prev(i)) == "=" and src.src(src.prev(i, 3)) == "namespace":
            out.add(src.src(src.prev(i, 2)))
    return out


def _namespace_statements(src: Source, names: set[str]) -> set[int]:
    """Tokens of ``namespace cg = cooperative_groups;`` and ``using namespace cooperative_groups;``: not uses."""
    out: set[int] = set()
    for i in src.idents(frozenset(names)):
        if src.src(src.prev(i)) == "=" and src.src(src.prev(i, 3)) == "namespace":
            out.update((i, src.prev(i, 2)))
        elif src.src(src.prev(i)) == "namespace":
            out.add(i)
    return out


def _using_namespace(src: Source) -> bool:
    return any(src.src(src.prev(i)) == "namespace" and src.src(src.prev(i, 2)) == "using"
               for i in src.idents(frozenset({NAMESPACE})))


def _declared(src: Source, i: int) -> int:
    """The variable a ``cg::...`` expression initialises or a ``cg::type`` declares (-1 if none)."""
    before = src.prev(i)
    if src.src(before) == "=" and src.kind(src.prev(before)) == IDENT:
        return src.prev(before)
    j = src.next(i, 2)  # the member after ``cg ::``
    if src.src(src.next(j)) == "<":
        depth, k = 0, src.next(j)
        for k in src.range_code(src.next(j), min(len(src.tokens), j + 64)):
            depth += (src.src(k) == "<") - (src.src(k) == ">") - 2 * (src.src(k) == ">>")
            if depth <= 0:
                break
        j = k
    k = src.next(j)
    while src.src(k) in ("&", "*", "const"):
        k = src.next(k)
    return k if src.kind(k) == IDENT and src.src(src.next(k)) in ("=", ";", ",", ")", "(", "{") else -1


def _scope(src: Source, i: int) -> tuple[int, int]:
    for fn in src.functions:
        if fn.params_open < i < fn.params_close or fn.body_open < i < fn.body_close:
            return fn.body_open, fn.body_close
    return 0, len(src.tokens)
