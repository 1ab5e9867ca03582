"""What the perf and regress renderers share: lines as rich ``Text`` and a plain-text rendering of renderables.

A ``rich`` format renderer returns a renderable (a ``Group``); the CLI prints it to its console, so colours and
the terminal's width apply there. The ``text`` format renders the same renderable to a plain string.
"""

from __future__ import annotations

import io
from collections.abc import Iterable

from rich.console import Console, Group, RenderableType
from rich.highlighter import ReprHighlighter
from rich.text import Text

_HIGHLIGHT = ReprHighlighter()


def line(markup: str, *, highlight: bool = True) -> Text:
    """One printed line as ``console.print(markup)`` would show it (markup parsed, reprs highlighted)."""
    text = Text.from_markup(markup)
    if highlight:
        _HIGHLIGHT.highlight(text)
    text.end = "\n"
    return text


def group(items: Iterable[RenderableType]) -> Group:
    return Group(*items)


def plain(renderable: RenderableType, width: int = 100) -> str:
    """``renderable`` as plain text at ``width`` columns (what a pipe shows)."""
    console = Console(file=io.StringIO(), width=width, color_system=None, force_terminal=False, no_color=True,
                      emoji=False, legacy_windows=False)
    console.print(renderable)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out
