"""Where a C/C++/CUDA file's ``#include`` operands are, read off the lossless token stream.

Below ``translate`` and ``hazards`` so that every include walker (convert's header handling, the file plan, the
unknown-name pass) finds the operands the same way.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from cuda2rocm.source.tokens import HEADER, IDENT, NL, STRING, TRIVIA, Token, all_indexes


def include_operands(tokens: Sequence[Token]) -> Iterator[int]:
    """Indexes of the operand token (``<...>`` or ``"..."``) of every #include directive."""
    srcs = [t.src for t in tokens]  # the candidates are found at C speed, then checked one by one
    for i in sorted(all_indexes(srcs, "include") + all_indexes(srcs, "include_next")):
        tok = tokens[i]
        if tok.kind != IDENT or not tok.pp:
            continue
        j = i + 1
        while j < len(tokens) and tokens[j].kind in TRIVIA and tokens[j].kind != NL:
            j += 1
        if j < len(tokens) and tokens[j].kind in (HEADER, STRING):
            yield j
