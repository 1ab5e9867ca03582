"""Python files, read with the ``tokenize`` module (never imported or executed, never regex over source).

Comments and user-facing strings are never matched as code, so ``# runs on CUDA`` and
``"No CUDA device"`` are not findings; ``torch.cuda.synchronize()`` and ``is_available()`` are not either.
"""

from __future__ import annotations

import functools
import io
import re
import sys
import tokenize
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from cuda2rocm.scan import rules
from cuda2rocm.scan.analyzers import pyrules
from cuda2rocm.scan.filefacts import FileFacts

#: files without any of these words have nothing for the Python rules (fast path for large trees)
_WORDS = r"cuda|CUDA|nvml|nvidia|cupy|numba|tensorrt|cudnn|NCCL|cpp_extension|triton|get_device|distributed|float8" \
    r"|inline_asm"


@functools.lru_cache(maxsize=1)
def _interesting() -> re.Pattern[str]:
    """Keywords plus the import names of every knowledge-base plugin (``import flash_attn``)."""
    from cuda2rocm import knowledge

    names = sorted({n.split(".")[0] for p in knowledge.plugins().values() for n in p.import_names})
    alternatives = "|".join(re.escape(n) for n in names if n)
    return re.compile(_WORDS + (rf"|\b(?:import|from)\s+(?:{alternatives})\b" if alternatives else ""))


@dataclass
class Line:
    """One logical line: its code tokens (no comments/NL), first physical line and indentation."""

    tokens: list[tokenize.TokenInfo] = field(default_factory=list)

    @property
    def line(self) -> int:
        return self.tokens[0].start[0]

    def strings(self) -> list[str]:
        return [t.string for t in self.tokens]


def scan_python(report: FileFacts, text: str, target_gpu: str = "MI300X") -> None:
    """``target_gpu``: the AMD GPU of the port (the FP8 formats it runs)."""
    if not _interesting().search(text):
        return
    state = pyrules.State(is_setup=report.path.rsplit("/", 1)[-1] == "setup.py")
    state.requires.target_gpu = target_gpu
    for line in logical_lines(report, text):
        pyrules.check_line(report, state, line.tokens)


def logical_lines(report: FileFacts, text: str) -> Iterator[Line]:
    """The logical lines of ``text``: their code tokens (no comments, NL, INDENT or DEDENT), in order."""
    fast = _c_logical_lines(text)
    if fast is not None:
        yield from fast
        return
    yield from _stdlib_logical_lines(report, text)


def _stdlib_logical_lines(report: FileFacts, text: str) -> Iterator[Line]:
    current = Line()
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                if current.tokens:
                    yield current
                current = Line()
            elif tok.type not in _SKIPPED:
                current.tokens.append(tok)
    except (tokenize.TokenError, IndentationError, SyntaxError) as exc:
        line = _error_line(exc)
        report.problem(rules.E105, f"Python tokenizer stopped at line {line}: {_error_text(exc)}", line)
        if current.tokens:
            yield current


_SKIPPED = frozenset({tokenize.COMMENT, tokenize.NL, tokenize.INDENT, tokenize.DEDENT})
#: the C tokenizer's types as ``tokenize`` reports them: ``async``/``await`` are NAMEs there, operators OP
_KEPT_TYPES = {tokenize.NAME: tokenize.NAME, tokenize.NUMBER: tokenize.NUMBER, tokenize.STRING: tokenize.STRING,
               tokenize.ASYNC: tokenize.NAME, tokenize.AWAIT: tokenize.NAME}
_new_info = tuple.__new__
#: the C tokenizer gives each valid operator its exact type and a character Python does not know the plain OP
_UNKNOWN_CHARACTER = frozenset({tokenize.OP, tokenize.ERRORTOKEN})


def _c_tokens() -> Callable[[str], Iterator[tuple[str, int, int, int, int, int, str]]] | None:
    """CPython 3.10/3.11's C tokenizer (``_tokenize.TokenizerIter``), ~3x faster than the ``tokenize`` module;
    None where it is missing or where ``tokenize`` itself already uses it (3.12+)."""
    if sys.version_info >= (3, 12):
        return None
    try:
        from _tokenize import TokenizerIter  # type: ignore[import-not-found,unused-ignore]
    except ImportError:  # pragma: no cover - other Python implementations
        return None
    return TokenizerIter  # type: ignore[no-any-return,unused-ignore]


_C_TOKENS = _c_tokens()


def _c_logical_lines(text: str) -> list[Line] | None:
    """What :func:`_stdlib_logical_lines` yields, from the C tokenizer; None wherever the two could differ.

    The C tokenizer of 3.10/3.11 counts columns in UTF-8 bytes (so non-ASCII text goes the slow way), ends lines
    at a lone CR and turns CRLF into LF inside strings (``tokenize`` does neither: text with a CR goes the slow
    way too), raises on some input ``tokenize`` accepts (then the slow way reports
    the same thing ``tokenize`` does), and on an error at the end of the input (EOF inside brackets, a bad
    dedent) stops without a word: a stream whose last token other than DEDENT is not a NEWLINE followed by
    nothing but blank and comment lines goes the slow way too. ``tests/scan/test_python_fast.py`` holds the two equal.
    """
    if _C_TOKENS is None or not text.isascii() or "\r" in text:
        return None
    lines: list[Line] = []
    current: list[tokenize.TokenInfo] = []
    last_type, last_row, last_col = tokenize.NEWLINE, 0, 0  # the last token that is not a DEDENT
    try:
        with warnings.catch_warnings():
            # a SyntaxWarning (``1if``, ``0777else``) marks input tokenize reads differently: take its path, and
            # never print the warning
            warnings.simplefilter("error")
            for string, type_, row, end_row, col, end_col, physical in _C_TOKENS(text):
                if type_ != tokenize.DEDENT:
                    last_type, last_row, last_col = type_, row, col
                if type_ == tokenize.NEWLINE:
                    if current:
                        lines.append(Line(current))
                        current = []
                elif type_ in _UNKNOWN_CHARACTER:  # `$`, a backtick: tokenize makes ERRORTOKENs of them
                    return None
                elif type_ not in _SKIPPED:
                    current.append(_new_info(tokenize.TokenInfo, (_KEPT_TYPES.get(type_, tokenize.OP), string,
                                                                  (row, col), (end_row, end_col), physical)))
    except (SyntaxError, ValueError, Warning):
        return None
    if current or last_type != tokenize.NEWLINE or not _only_trivia_after(text, last_row, last_col):
        return None
    return lines


def _only_trivia_after(text: str, row: int, col: int) -> bool:
    """Whether the text after 1-based ``row``, 0-based ``col`` is only whitespace, comments and newlines."""
    tail = text.split("\n")[max(row - 1, 0):]
    if row and tail:
        tail[0] = tail[0][max(col, 0):]
    return all(not (s := part.strip(" \t\f\r")) or s.startswith("#") for part in tail)


def _error_line(exc: Exception) -> int:
    if isinstance(exc, tokenize.TokenError) and len(exc.args) > 1:
        return int(exc.args[1][0])
    return int(getattr(exc, "lineno", 0) or 0)


def _error_text(exc: Exception) -> str:
    return str(exc.args[0]) if exc.args else type(exc).__name__
