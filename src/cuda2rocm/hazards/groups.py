"""Warp-width fixes are all or nothing per group of code that depends on one another.

A kernel that computes ``lane = threadIdx.x & 31``, ``warp = threadIdx.x / WARP_SIZE``, keeps one slot per warp
in ``partial[32]`` and reduces with a helper whose shuffles start at 16 makes one assumption, "a warp is 32
threads", in five places. Fixing some of them (the lane and the shuffle start) but not the others (the warp
id through ``WARP_SIZE``) is worse than fixing none: on a 64-wide wavefront the lanes and the warp ids then
disagree, and the second stage reads slots that no thread wrote.

A *group* is a connected set of device functions (one calls the other) and warp-size constants (a function
uses it), with every warp-width hazard found in them. When each hazard of a group has a safe fix, or needs
none once the others are fixed (``Hit.covered``), all of the group's fixes are applied; otherwise none is, and
each hit's note names the hazard that blocks the group. The wave64 model in the tests executes fixed kernels to
check that the grouped result is consistent (see docs/hazards.md).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Sequence

from cuda2rocm.hazards.context import Hit, Source
from cuda2rocm.hazards.flow import warp_constants
from cuda2rocm.source.tokens import IDENT

#: rules whose fixes change how code maps threads to warps, lanes and masks: fixed together or not at all.
#: (C2R-K201, the mask argument, is independent: a 64-bit mask is right whatever else is fixed.)
GROUPED = frozenset({"C2R-K101", "C2R-K102", "C2R-K103", "C2R-K104", "C2R-K106", "C2R-K107",
                     "C2R-K202", "C2R-K203", "C2R-K204"})


class _Sets:
    """Union-find over hashable nodes."""

    def __init__(self) -> None:
        self.parent: dict[object, object] = {}

    def find(self, x: object) -> object:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: object, b: object) -> None:
        self.parent[self.find(a)] = self.find(b)


def _constant_of(src: Source, hit: Hit) -> str:
    """The name a file-scope K106 hit defines: ``#define NAME 32`` / ``constexpr int NAME = 32``."""
    j = src.prev(hit.index)
    if src.src(j) == "=":
        j = src.prev(j)
    return src.src(j) if src.kind(j) == IDENT else ""


def _node(src: Source, hit: Hit) -> object:
    fn = src.function_at(hit.index)
    if fn is not None:
        return ("fn", fn.body_open)
    name = _constant_of(src, hit) if hit.rule == "C2R-K106" else ""
    return ("const", name) if name else ("hit", hit.index)


def _connect(src: Source, sets: _Sets, defined: set[str]) -> None:
    functions = src.device_functions()
    names = {f.name for f in functions}
    constants = warp_constants(src) | defined
    by_name: dict[str, list[int]] = {}
    for f in functions:
        by_name.setdefault(f.name, []).append(f.body_open)
    wanted = frozenset(names) | constants
    joined: set[str] = set()  # names whose functions (overloads, definitions in #if branches) are one set already
    for f in functions:
        for i in src.idents(wanted, f.body_open, f.body_close):
            name = src.src(i)
            if name in constants:
                sets.union(("fn", f.body_open), ("const", name))
            same = by_name.get(name)
            if same:  # f with every function of that name: f with the first, and those with one another once
                sets.union(("fn", f.body_open), ("fn", same[0]))
                if name not in joined:
                    joined.add(name)
                    for other in same[1:]:
                        sets.union(("fn", same[0]), ("fn", other))


def _line(src: Source, hit: Hit) -> int:
    return src.loc(hit.index)[0]


def _resolved(hit: Hit, fixed: frozenset[str], src: Source) -> bool:
    """Whether ``hit`` is fixed when every edit of its group is applied (``fixed``: the constants the group's
    edits define anew, :func:`_fixed_constants`)."""
    if hit.edits:
        return True
    if hit.rule == "C2R-K101" and src.kind(hit.index) == IDENT:  # a use of WARP_SIZE: fixed at its define
        return src.src(hit.index) in fixed
    return hit.covered


def _fixed_constants(group: Sequence[Hit], src: Source) -> frozenset[str]:
    return frozenset(_constant_of(src, h) for h in group if h.rule == "C2R-K106" and h.edits)


def settle(src: Source, found: Sequence[Hit]) -> list[Hit]:
    """``found`` with the edits of every group that cannot be fixed whole removed, and a note on each grouped
    hit saying what ``--fix-hazards`` does with it."""
    grouped = [h for h in found if h.rule in GROUPED]
    if not grouped:
        return list(found)
    sets = _Sets()
    _connect(src, sets, {_constant_of(src, h) for h in grouped if h.rule == "C2R-K106"} - {""})
    groups: dict[object, list[Hit]] = {}
    for h in grouped:
        groups.setdefault(sets.find(_node(src, h)), []).append(h)
    settled: dict[int, Hit] = {}
    for group in groups.values():
        fixed = _fixed_constants(group, src)
        blockers = [h for h in group if not _resolved(h, fixed, src)]
        blocking = {id(h) for h in blockers}
        at = {id(h): _line(src, h) for h in group}
        count = Counter(at.values())
        ordered = sorted(count)
        for h in group:
            others = _Others(ordered, at[id(h)] if count[at[id(h)]] == 1 else None)
            settled[id(h)] = _note(h, len(group), blockers[0] if blockers else None, id(h) in blocking, others,
                                   fixed, src)
    return [settled.get(id(h), h) for h in found]


class _Others:
    """The lines of a group's other hits: the group's lines, ascending, less the hit's own unless another hit of
    the group is on it too (``without``). Shared by the group's hits: each costs O(1), not a copy of the lines."""

    __slots__ = ("lines", "without")

    def __init__(self, lines: Sequence[int], without: int | None) -> None:
        self.lines = lines
        self.without = without

    def count(self) -> int:
        return len(self.lines) - (self.without is not None)

    def first(self, n: int) -> list[int]:
        return list(itertools.islice((x for x in self.lines if x != self.without), n))


#: at most this many lines are listed in a note (a group spanning a big file lists its first ones and a count)
_LISTED = 20


def _lines(lines: _Others) -> str:
    shown, count = lines.first(_LISTED), lines.count()
    more = f" and {count - len(shown)} more" if count > len(shown) else ""
    return ("line " + str(shown[0]) if count == 1 else "lines " + ", ".join(map(str, shown))) + more


def _note(hit: Hit, size: int, first: Hit | None, blocks: bool, others: _Others, fixed: frozenset[str],
          src: Source) -> Hit:
    """The hit as settled in a group of ``size`` hits: ``first``, the group's first hit without a safe fix (None:
    every one has one); ``blocks``: the hit itself is one of those."""
    if first is None:
        if not others.count():
            return dataclasses.replace(hit, covered=hit.covered or _resolved(hit, fixed, src))
        note = f"applied together with the {size - 1} related warp-width uses ({_lines(others)})"
        return dataclasses.replace(hit, covered=True, note=note)
    if blocks:
        note = (f"no safe fix, so --fix-hazards also leaves the {size - 1} related warp-width uses "
                f"unchanged ({_lines(others)})" if others.count() else "")
    else:
        note = (f"not applied: {first.rule} at line {_line(src, first)} in the same kernel has no safe fix, and "
                "fixing only part of a kernel's warp-width uses makes it inconsistent on 64-wide wavefronts")
    return dataclasses.replace(hit, edits=(), covered=False, note=note)
