"""Helm (Go template) actions in YAML text: where the ``{{ ... }}`` actions are, and the text with each masked by
bytes of the same length, so a template reads as YAML with every offset and line kept. ``scan`` and ``migrate
deploy`` read chart templates through it alike."""

from __future__ import annotations

from collections.abc import Sequence

from cuda2rocm.source.formats.yamlnodes import SCALAR, YamlStream, read_yaml


def template_actions(text: str) -> list[tuple[int, int]]:
    """(start, end) of every ``{{ ... }}`` action; an unclosed one runs to the end of the text."""
    out: list[tuple[int, int]] = []
    pos = text.find("{{")
    while pos >= 0:
        close = text.find("}}", pos + 2)
        end = len(text) if close < 0 else close + 2
        out.append((pos, end))
        pos = text.find("{{", end)
    return out


def mask_templates(text: str, actions: Sequence[tuple[int, int]]) -> str:
    """``text`` with every action replaced by bytes of the same length: blanks where its lines hold nothing but
    actions and whitespace, else a plain scalar of ``x``; newlines are kept, so every offset stays."""
    chars = list(text)
    for start, end in actions:
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", end)
        line_end = len(text) if line_end < 0 else line_end
        alone = not _outside_actions(text, line_start, line_end, actions).strip()
        for i in range(start, end):
            if chars[i] != "\n":
                chars[i] = " " if alone else "x"
    return "".join(chars)


def _outside_actions(text: str, start: int, end: int, actions: Sequence[tuple[int, int]]) -> str:
    """The part of ``text[start:end]`` that is not inside an action."""
    parts, pos = [], start
    for a, b in actions:
        if b <= start or a >= end:
            continue
        parts.append(text[pos:max(a, pos)])
        pos = max(pos, b)
    parts.append(text[pos:end] if pos < end else "")
    return "".join(parts)


def templated_lines(text: str, actions: Sequence[tuple[int, int]]) -> set[int]:
    """1-based lines that hold (part of) a template action."""
    lines: set[int] = set()
    for start, end in actions:
        first = text.count("\n", 0, start) + 1
        lines.update(range(first, first + text.count("\n", start, end) + 1))
    return lines


def read_template(text: str, actions: Sequence[tuple[int, int]] | None = None) -> YamlStream:
    """The YAML of ``text`` read with its actions masked; a plain scalar that holds an action keeps the text as
    written (``{{ .Values.gpus }}``, not the mask) as its value and becomes a string. Without actions: plain
    :func:`read_yaml`. ``actions``: :func:`template_actions` of ``text``, when the caller has them."""
    actions = template_actions(text) if actions is None else actions
    if not actions:
        return read_yaml(text)
    stream = read_yaml(mask_templates(text, actions))
    for node in stream.nodes():
        if node.kind == SCALAR and node.style == "" and any(a < node.end and node.offset < b for a, b in actions):
            node.value, node.tag = text[node.offset:node.end].strip(), "tag:yaml.org,2002:str"
    return YamlStream(text, stream.documents, stream.problems)
