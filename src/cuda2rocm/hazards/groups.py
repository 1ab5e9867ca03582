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
    for f in functions:
        for i in src.idents(wanted, f.body_open, f.body_close):
            name = src.src(i)
            if name in constants:
                sets.union(("fn", f.body_open), ("const", name))
            for other in by_name.get(name, ()):
                sets.union(("fn", f.body_open), ("fn", other))


def _line(src: Source, hit: Hit) -> int:
    return src.loc(hit.index)[0]


def _resolved(hit: Hit, group: Sequence[Hit], src: Source) -> bool:
    """Whether ``hit`` is fixed when every edit of ``group`` is applied."""
    if hit.edits:
        return True
    if hit.rule == "C2R-K101" and src.kind(hit.index) == IDENT:  # a use of WARP_SIZE: fixed at its define
        name = src.src(hit.index)
        return any(h.rule == "C2R-K106" and h.edits and _constant_of(src, h) == name for h in group)
    return hit.covered


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
        blockers = [h for h in group if not _resolved(h, group, src)]
        for h in group:
            others = sorted({_line(src, o) for o in group if o is not h})
            settled[id(h)] = _note(h, group, blockers, others, src)
    return [settled.get(id(h), h) for h in found]


def _lines(lines: Sequence[int]) -> str:
    return "line " + str(lines[0]) if len(lines) == 1 else "lines " + ", ".join(map(str, lines))


def _note(hit: Hit, group: Sequence[Hit], blockers: Sequence[Hit], others: Sequence[int], src: Source) -> Hit:
    if not blockers:
        if not others:
            return dataclasses.replace(hit, covered=hit.covered or _resolved(hit, group, src))
        note = f"applied together with the {len(group) - 1} related warp-width uses ({_lines(others)})"
        return dataclasses.replace(hit, covered=True, note=note)
    if any(b is hit for b in blockers):
        note = (f"no safe fix, so --fix-hazards also leaves the {len(group) - 1} related warp-width uses "
                f"unchanged ({_lines(others)})" if others else "")
    else:
        first = blockers[0]
        note = (f"not applied: {first.rule} at line {_line(src, first)} in the same kernel has no safe fix, and "
                "fixing only part of a kernel's warp-width uses makes it inconsistent on 64-wide wavefronts")
    return dataclasses.replace(hit, edits=(), covered=False, note=note)
