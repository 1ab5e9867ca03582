"""Call and launch-configuration arguments as C++ reads them: the commas of template-ids do not split them."""

from __future__ import annotations

from collections.abc import Sequence

from cuda2rocm.source.tokens import IDENT, NUMBER, PUNCT, TRIVIA, Token, next_code, prev_code

#: tokens that may stand between the ``<`` and ``>`` of a template-id argument (``k<float, 4>``, ``f<a::T*, N>``)
_TEMPLATE_ARGUMENT_KINDS = frozenset({IDENT, NUMBER})
_TEMPLATE_ARGUMENT_PUNCT = frozenset({",", "::", "*", "&", "<", ">", ">>", "(", ")", "[", "]", "-", "+"})
_AFTER_TEMPLATE_ID = frozenset({",", ")", "(", "::"})


def join_template_arguments(toks: Sequence[Token], args: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Call-argument ranges with the commas of template-ids put back: ``f(k<float, 4>, x)`` has two arguments,
    not three (the bracket matcher does not track ``<...>``). A ``<`` right after an identifier opens a template-id
    when a matching ``>`` follows with only type and constant tokens between and ``,``/``)``/``(``/``::`` after
    it, so a comparison (``a < b, c > d``) stays two arguments."""
    if len(args) < 2:
        return args
    end = args[-1][1]
    inside: set[int] = set()
    i = args[0][0]
    while i < end:
        if toks[i].src == "<" and toks[i].kind == PUNCT and (p := prev_code(toks, i)) >= 0 and toks[p].kind == IDENT:
            close, commas = _template_close(toks, i, end)
            if close >= 0:
                inside.update(commas)
                i = close
        i += 1
    if not inside:
        return args
    joined = [args[0]]
    for start, stop in args[1:]:
        if joined[-1][1] in inside:
            joined[-1] = (joined[-1][0], stop)
        else:
            joined.append((start, stop))
    return joined


def _template_close(toks: Sequence[Token], i: int, end: int) -> tuple[int, list[int]]:
    """(index of the ``>`` closing the template-id opened at ``i``, its top-level commas), or (-1, [])."""
    depth = 0
    commas: list[int] = []
    j = i
    while j < end:
        tok = toks[j]
        if tok.kind not in TRIVIA:
            if tok.kind not in _TEMPLATE_ARGUMENT_KINDS and not (tok.kind == PUNCT
                                                                   and tok.src in _TEMPLATE_ARGUMENT_PUNCT):
                return -1, []
            if tok.src == "<":
                depth += 1
            elif tok.src in (">", ">>"):
                depth -= len(tok.src)
                if depth <= 0:
                    nxt = next_code(toks, j)
                    ok = depth == 0 and (nxt >= end or toks[nxt].src in _AFTER_TEMPLATE_ID)
                    return (j, commas) if ok else (-1, [])
            elif tok.src == "," and depth == 1:
                commas.append(j)
        j += 1
    return -1, []
