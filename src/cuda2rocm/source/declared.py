"""Names a file declares itself: macros, types, functions and variables (a cheap, forgiving heuristic).

Used to tell a project's own CUDA-looking names (``CUDA_CHECK``, ``cublasCheck``, ``cuda_arch_major``) from
CUDA APIs the mapping tables do not know: ``convert`` reports only the latter (C2R-A106), ``scan`` counts
only the latter as API references.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable

from cuda2rocm.source.tokens import (
    BAD_COMMENT,
    BAD_STRING,
    CHAR,
    HEADER,
    IDENT,
    NUMBER,
    OTHER,
    PUNCT,
    STRING,
    TRIVIA,
    Token,
    all_indexes,
    prev_code,
)

_DECLARERS = frozenset({"define", "struct", "class", "enum", "union", "namespace", "typedef", "using"})
_NOT_TYPES = frozenset({"return", "case", "else", "goto", "throw", "new", "delete", "sizeof", "co_return"})

_SRC = operator.itemgetter(1)  # a token's text, read at C speed


def defined_names(tokens: list[Token]) -> frozenset[str]:
    """Names the file declares: macros, types, functions and variables (a cheap, forgiving heuristic).

    A name counts as declared where the identifier or punctuator before it is a declaring keyword
    (``#define``, ``struct``, ``using``...) or a type name, or ``*``/``&``/``>``/``::`` after an identifier.
    """
    found: set[str] = set()
    for code in _streams(tokens):
        found.update(code[k].src for k in range(1, len(code)) if code[k].kind == IDENT and _declared_at(code, k))
    return frozenset(found)


def _streams(tokens: list[Token]) -> list[list[Token]]:
    """The identifiers and punctuators of ordinary code, and of each directive, as separate streams (``endif``
    before ``cudaFree`` on the next line is not a type name: see ``source.tokens.prev_code``)."""
    code: list[Token] = []
    directives: list[list[Token]] = []
    inside = False
    for t in tokens:
        if not t.pp:
            inside = False
            if t.kind in _CODE:
                code.append(t)
            continue
        if not inside:
            directives.append([])
            inside = True
        if t.kind in _CODE:
            directives[-1].append(t)
    return [code, *directives]


def is_defined(tokens: list[Token], name: str, occurrences: Iterable[int] | None = None) -> bool:
    """``name in defined_names(tokens)``, looking only at the occurrences of ``name`` (the indexes of the tokens
    whose text it is, when the caller has them)."""
    found = all_indexes(list(map(_SRC, tokens)), name) if occurrences is None else occurrences
    for i in found:
        if tokens[i].kind != IDENT:
            continue
        prev = _prev_code(tokens, i)
        if prev < 0:
            continue
        before = _prev_code(tokens, prev)
        window = [tokens[prev], tokens[i]] if before < 0 else [tokens[before], tokens[prev], tokens[i]]
        if _declared_at(window, len(window) - 1):
            return True
    return False


_CODE = frozenset({IDENT, PUNCT})
_NOT_CODE = frozenset({NUMBER, STRING, CHAR, HEADER, OTHER, BAD_STRING, BAD_COMMENT}) | TRIVIA


def _prev_code(tokens: list[Token], i: int) -> int:
    """The previous identifier or punctuator (what :func:`defined_names` reads as code), in the same stream."""
    return prev_code(tokens, i, _NOT_CODE)


def _declared_at(code: list[Token], k: int) -> bool:
    prev = code[k - 1]
    declared = prev.src in _DECLARERS or (prev.kind == IDENT and prev.src not in _NOT_TYPES)
    return declared or (prev.src in ("*", "&", ">", "::") and k >= 2 and code[k - 2].kind == IDENT)
