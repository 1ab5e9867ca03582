"""Hypothesis strategies shared by the reader tests: inputs mutated from a realistic seed."""

from __future__ import annotations

from hypothesis import strategies as st

_NOISE = st.sampled_from(["\\", "\n", "\r\n", '"', "'", "#", "(", ")", "[", "]", "{", "}", "$", "`", " ", "\t", ":",
                          "=", ";", "&", "|", "<<", "<<EOF\n", "EOF", ",", "-", "*", "&a", "é", "\x00"])


@st.composite
def _mutate(draw: st.DrawFn, seed: str) -> str:
    text = seed
    for _ in range(draw(st.integers(0, 6))):
        pos = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        if op == "insert":
            text = text[:pos] + draw(st.one_of(_NOISE, st.text(max_size=3))) + text[pos:]
        elif op == "delete":
            text = text[:pos] + text[pos + draw(st.integers(1, 5)):]
        else:
            text = text[:pos] + draw(_NOISE) + text[pos + 1:]
    return text


def mutated(seed: str) -> st.SearchStrategy[str]:
    """``seed`` with up to six random insertions, deletions or replacements."""
    return _mutate(seed)


def line_count(text: str) -> int:
    """Lines as the readers count them (``\\n``, ``\\r\\n`` and a lone ``\\r`` end a line)."""
    from cuda2rocm.source.tokens import LineIndex

    return LineIndex(text).line_count
