"""Invariants over every golden fixture: lossless tokens, only reported edits change bytes, idempotence."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.translate.golden import GOLDEN, inputs, options_for, output_text, read, translate

from cuda2rocm.model import Failed, Translated
from cuda2rocm.source.tokens import tokenize, untokenize
from cuda2rocm.toolchain.linemap import map_line
from cuda2rocm.translate.api import convert_source
from cuda2rocm.translate.apply import apply

CASES = inputs()
IDS = [str(p.relative_to(GOLDEN)) for p in CASES]


@pytest.mark.parametrize("src", CASES, ids=IDS)
def test_round_trip(src):
    text = read(src)
    assert untokenize(tokenize(text)) == text


@pytest.mark.parametrize("src", CASES, ids=IDS)
def test_only_reported_edits_change_bytes(src):
    text = read(src)
    r = translate(src, text)
    if not isinstance(r, Translated):
        return
    assert apply(text, r.edits) == r.text
    # every byte outside the edited spans survives, in order
    pos = 0
    for e in r.edits:
        assert r.text.find(text[pos:e.start]) >= 0
        pos = e.end
    assert r.text.endswith(text[pos:])
    # comments and strings are never edited
    protected = [(t.offset, t.end) for t in tokenize(text) if t.kind in ("COMMENT", "STRING", "CHAR")]
    for e in r.edits:
        assert not any(s < e.end and e.start < end for s, end in protected), e


@pytest.mark.parametrize("src", CASES, ids=IDS)
def test_idempotent(src):
    text = read(src)
    once = output_text(translate(src, text), text)
    again = convert_source(once, "again.hip", options_for(text))
    assert output_text(again, once) == once


@pytest.mark.parametrize("src", CASES, ids=IDS)
def test_every_translated_line_maps_back(src):
    text = read(src)
    r = translate(src, text)
    if not isinstance(r, Translated):
        return
    lines_in = text.count("\n") + 1
    for n in range(1, r.text.count("\n") + 2):
        assert 1 <= map_line(r.edits, text, r.text, n) <= lines_in


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("cudaMlo_(){};<>#\"'/*\n \\ x0")) , max_size=120))
def test_never_raises_and_is_lossless_on_junk(text):
    r = convert_source(text, "junk.cu")
    if isinstance(r, Failed):
        assert "internal error" not in r.error
    elif isinstance(r, Translated):
        assert apply(text, r.edits) == r.text
