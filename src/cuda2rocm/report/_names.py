"""Long ``/``-separated metric names, shown so that a narrow table never cuts the part that tells rows apart.

Names are grouped by their leading segments (``comm/all_reduce/float32/...``); within a group the segments every
name shares become the group's title, a pattern with ``*`` where the names differ
(``comm/all_reduce/float32/*/*/*/busbw_gbps``), and each row shows only its own segments, in order
(``oop/1048576/events``). A name that shares its leading segments with no other stays whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: leading segments that decide the group (``comm/<op>/<dtype>``), at most all but the last segment
GROUP_DEPTH = 3


@dataclass(frozen=True)
class NameGroup:
    title: str  # the pattern, "" for the names that share nothing
    rows: tuple[tuple[int, str], ...]  # (index into the names, the label to show)


def group_names(names: Sequence[str]) -> list[NameGroup]:
    """Groups in first-appearance order, then the ungrouped names (titled ``""``) last."""
    buckets: dict[tuple[int, tuple[str, ...]], list[int]] = {}
    for i, name in enumerate(names):
        parts = name.split("/")
        buckets.setdefault((len(parts), tuple(parts[:min(GROUP_DEPTH, len(parts) - 1)])), []).append(i)
    groups: list[NameGroup] = []
    single: list[tuple[int, str]] = []
    for (_, lead), members in buckets.items():
        if len(members) < 2 or not lead:
            single += [(i, names[i]) for i in members]
            continue
        split = [names[i].split("/") for i in members]
        varying = [j for j in range(len(split[0])) if len({parts[j] for parts in split}) > 1]
        title = "/".join("*" if j in varying else part for j, part in enumerate(split[0]))
        groups.append(NameGroup(title, tuple((i, "/".join(parts[j] for j in varying) or names[i])
                                             for i, parts in zip(members, split, strict=True))))
    if single:
        groups.append(NameGroup("", tuple(sorted(single))))
    return groups
