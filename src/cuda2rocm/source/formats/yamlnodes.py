"""YAML documents as node trees with spans, built from ruamel.yaml's event stream (safe: nothing is constructed
but plain strings, numbers, booleans, null, lists and dicts).

ruamel's round-trip loader gives line and column only (``.lc``); its events carry ``start_mark.index`` and
``end_mark.index``, so every node here has ``offset``/``end`` into the text, including aliases (``*name``,
which keep their own span and point at their anchor's node; a node's span starts at its ``&anchor`` or
``!tag`` when it has one) and merge keys (``<<: *base``, kept as written;
:meth:`Node.to_python` applies them). Multi-document streams give one root per document. A block collection
ends at its last child's end; a flow one at its closing bracket. A syntax error is a :class:`Problem` with the
line (as is an alias to an undefined anchor); the documents before an error are kept.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    CollectionStartEvent,
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
)
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.resolver import VersionedResolver

from cuda2rocm.source.formats._base import Problem

SCALAR = "scalar"
MAPPING = "mapping"
SEQUENCE = "sequence"
ALIAS = "alias"
_TAG = "tag:yaml.org,2002:"


@dataclass(eq=False)
class Node:
    kind: str
    offset: int
    end: int
    line: int  # 1-based
    col: int  # 1-based
    tag: str = ""  # resolved tag of a scalar (``tag:yaml.org,2002:int``), explicit tag of a collection
    anchor: str = ""
    value: str = ""  # a scalar's text (an alias: the anchor it names)
    style: str = ""  # scalar style ('', "'", '"', '|', '>'); collections: 'flow' or 'block'
    items: list[Node] = field(default_factory=list)  # sequence items
    pairs: list[tuple[Node, Node]] = field(default_factory=list)  # mapping entries in order
    target: Node | None = None  # what an alias refers to

    def resolved(self) -> Node:
        """The node itself, or for an alias the anchored node it names."""
        node: Node = self
        for _ in range(64):
            if node.kind != ALIAS or node.target is None:
                break
            node = node.target
        return node

    def get(self, key: str) -> Node | None:
        """The value node of ``key`` in a mapping (own entries only; merge keys are not followed)."""
        for k, v in self.resolved().pairs:
            if k.kind == SCALAR and k.value == key:
                return v
        return None

    def key_node(self, key: str) -> Node | None:
        for k, _ in self.resolved().pairs:
            if k.kind == SCALAR and k.value == key:
                return k
        return None

    def walk(self) -> Iterator[Node]:
        """This node and every node below it (aliases are not followed)."""
        yield self
        for item in self.items:
            yield from item.walk()
        for k, v in self.pairs:
            yield from k.walk()
            yield from v.walk()

    def to_python(self, _memo: dict[int, Any] | None = None) -> Any:
        """Plain Python data (dict, list, str, int, float, bool, None), merge keys applied."""
        memo: dict[int, Any] = {} if _memo is None else _memo
        node = self.resolved()
        if id(node) in memo:
            return memo[id(node)]
        if node.kind == SCALAR:
            out: Any = _scalar(node)
        elif node.kind == SEQUENCE:
            out = []
            memo[id(node)] = out
            out.extend(item.to_python(memo) for item in node.items)
        elif node.kind == MAPPING:
            out = {}
            memo[id(node)] = out
            merged: dict[Any, Any] = {}
            for k, v in node.pairs:
                if k.kind == SCALAR and k.value == "<<" and k.style == "":
                    target = v.resolved()
                    for src in (target.items if target.kind == SEQUENCE else [v]):
                        data = src.to_python(memo)
                        if isinstance(data, dict):
                            for key, value in data.items():
                                merged.setdefault(key, value)  # the first source that has a key wins
                    continue
                key = k.to_python(memo)
                out[key if _hashable(key) else str(key)] = v.to_python(memo)
            for key, value in merged.items():
                out.setdefault(key, value)  # own keys win over merged ones
        else:  # an alias to an unknown anchor
            out = None
        memo[id(node)] = out
        return out


def _hashable(x: Any) -> bool:
    try:
        hash(x)
    except TypeError:
        return False
    return True


def _scalar(node: Node) -> Any:
    tag, v = node.tag, node.value
    try:
        if tag == _TAG + "null":
            return None
        if tag == _TAG + "bool":
            return v.lower() in ("true", "yes", "on", "y")
        if tag == _TAG + "int":
            s = v.replace("_", "")
            if s.lstrip("+-").startswith(("0o", "0x", "0b")):
                return int(s, 0)
            return int(s, 8) if len(s.lstrip("+-")) > 1 and s.lstrip("+-").startswith("0") else int(s)
        if tag == _TAG + "float":
            s = v.replace("_", "").lower()
            if s.lstrip("+-") in (".inf",):
                return -math.inf if s.startswith("-") else math.inf
            if s == ".nan":
                return math.nan
            return float(s)
    except ValueError:
        return v
    return v


@dataclass(frozen=True)
class YamlStream:
    text: str
    documents: tuple[Node, ...]
    problems: tuple[Problem, ...]

    def nodes(self) -> Iterator[Node]:
        for doc in self.documents:
            yield from doc.walk()


class _Builder:
    def __init__(self) -> None:
        self.resolver = VersionedResolver()
        self.anchors: dict[str, Node] = {}
        self.stack: list[Node] = []
        self.pending_key: list[Node | None] = []
        self.documents: list[Node] = []
        self.problems: list[Problem] = []

    def add(self, node: Node) -> None:
        if node.anchor:
            self.anchors[node.anchor] = node
        if not self.stack:
            self.documents.append(node)
            return
        parent = self.stack[-1]
        if parent.kind == SEQUENCE:
            parent.items.append(node)
        elif self.pending_key[-1] is None:
            self.pending_key[-1] = node
        else:
            key = self.pending_key[-1]
            assert key is not None
            parent.pairs.append((key, node))
            self.pending_key[-1] = None

    def event(self, e: Event) -> None:
        start, end = e.start_mark, e.end_mark
        if isinstance(e, DocumentStartEvent):
            self.anchors = {}
        elif isinstance(e, ScalarEvent):
            tag = e.tag or self.resolver.resolve(ScalarNode, e.value, e.implicit)
            self.add(Node(SCALAR, start.index, end.index, start.line + 1, start.column + 1, str(tag), e.anchor or "",
                          e.value, e.style or ""))
        elif isinstance(e, AliasEvent):
            if (e.anchor or "") not in self.anchors:
                self.problems.append(Problem(start.line + 1, f"invalid YAML at line {start.line + 1}: found undefined "
                                             f"alias {e.anchor!r}", start.index))
            self.add(Node(ALIAS, start.index, end.index, start.line + 1, start.column + 1, value=e.anchor or "",
                          target=self.anchors.get(e.anchor or "")))
        elif isinstance(e, CollectionStartEvent):
            kind = MAPPING if isinstance(e, MappingStartEvent) else SEQUENCE
            node = Node(kind, start.index, end.index, start.line + 1, start.column + 1, str(e.tag or ""),
                        e.anchor or "", style="flow" if e.flow_style else "block")
            self.add(node)
            self.stack.append(node)
            self.pending_key.append(None)
        elif isinstance(e, (MappingEndEvent, SequenceEndEvent)):
            node = self.stack.pop()
            self.pending_key.pop()
            if node.style == "flow":
                node.end = end.index
            else:
                last = node.items[-1] if node.items else node.pairs[-1][1] if node.pairs else None
                node.end = last.end if last is not None else node.end


def read_yaml(text: str) -> YamlStream:
    """Read a YAML stream (one or more documents); never raises."""
    builder = _Builder()
    problems = builder.problems
    try:
        for event in YAML(typ="rt").parse(text):
            builder.event(event)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 0
        problems.append(Problem(line, f"invalid YAML at line {line}: {exc.problem or exc.context}",
                                mark.index if mark is not None else 0))
    except YAMLError as exc:
        problems.append(Problem(0, f"invalid YAML: {exc}", 0))
    docs = builder.documents
    if builder.stack:  # the error cut a document short: keep only the complete ones
        docs = docs[:-1]
    return YamlStream(text, tuple(docs), tuple(problems))
