"""The one overlap policy (``source.edits.select``) against its definition, written as a plain double loop."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuda2rocm.model import Edit
from cuda2rocm.source.edits import apply_edits, select, word_removal


def _overlap(a: Edit, b: Edit) -> bool:
    shared = a.start < b.end and b.start < a.end
    return shared or (a.start == a.end == b.start == b.end)


def _reference(edits: list[Edit], kept: list[Edit]) -> tuple[list[Edit], list[Edit]]:
    accepted: list[Edit] = []
    dropped: list[Edit] = []
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        if any(_overlap(e, k) for k in kept) or any(_overlap(e, a) for a in accepted):
            dropped.append(e)
        else:
            accepted.append(e)
    return accepted, dropped


EDIT = st.builds(lambda s, n, r: Edit(s, s + n, r, "t"), st.integers(0, 30), st.integers(0, 4),
                 st.sampled_from(["", "x", "yy"]))


def _disjoint(edits: list[Edit]) -> list[Edit]:
    return select(edits)[0]


@settings(max_examples=500, deadline=None)
@given(st.lists(EDIT, max_size=12), st.lists(EDIT, max_size=8))
def test_select_equals_its_definition(edits: list[Edit], kept: list[Edit]) -> None:
    kept = _disjoint(kept)
    assert select(edits, kept) == _reference(edits, kept)


@settings(max_examples=300, deadline=None)
@given(st.lists(EDIT, max_size=12))
def test_selected_edits_apply(edits: list[Edit]) -> None:
    accepted, dropped = select(edits)
    assert sorted(accepted + dropped, key=repr) == sorted(edits, key=repr)
    apply_edits("a" * 40, accepted)  # never raises: selected edits do not overlap


def test_boundaries() -> None:
    replace = Edit(5, 8, "r", "t")
    at_start, at_end, inside = Edit(5, 5, "i", "t"), Edit(8, 8, "j", "t"), Edit(6, 6, "k", "t")
    assert select([at_start, at_end, inside], [replace]) == ([at_start, at_end], [inside])
    twice = Edit(5, 5, "again", "t")
    assert select([twice], [at_start]) == ([], [twice])
    assert select([at_start, twice]) == ([at_start], [twice])  # the first of two insertions at one point wins


# ---- word_removal: the one "remove a word and its blanks" span -------------------------------------------------


@pytest.mark.parametrize(("text", "word", "kwargs", "expected"), [
    ("a b c", "b", {}, "a c"),  # the blanks before it
    ("b c", "b", {}, "c"),  # at the text's start: the blanks after it
    ("x\n  b c\n", "b", {}, "x\n  c\n"),  # at a line's start: its indentation stays
    ("f(-g -O2)", "-g", {"openers": "\n(\"'="}, "f(-O2)"),  # after an opener: the blanks after it
    ("f(-g -O2)", "-g", {}, "f(-O2)"),  # no blanks before: the ones after it go
    ("cmd \\\n  b \\\n  c\n", "b", {"continuation": True}, "cmd \\\n  c\n"),  # the continuation line goes
    ("cmd \\\n  b \\\n  c\n", "b", {}, "cmd \\\n  \\\n  c\n"),  # without: only the word and its blanks
])
def test_word_removal(text: str, word: str, kwargs: dict[str, object], expected: str) -> None:
    at = text.index(word)
    start, end = word_removal(text, at, at + len(word), **kwargs)  # type: ignore[arg-type]
    assert text[:start] + text[end:] == expected
