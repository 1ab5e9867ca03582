"""Lossless C/C++/CUDA source model: tokens that round-trip byte for byte, plus light structure."""

from cuda2rocm.source.tokens import (
    CODE_KINDS,
    TRIVIA,
    LineIndex,
    Token,
    TokenizeError,
    tokenize,
    untokenize,
)

__all__ = ["CODE_KINDS", "TRIVIA", "LineIndex", "Token", "TokenizeError", "tokenize", "untokenize"]
