"""Python files, read with the ``tokenize`` module (never imported or executed, never regex over source).

Comments and user-facing strings are never matched as code, so ``# runs on CUDA`` and
``"No CUDA device"`` are not findings; ``torch.cuda.synchronize()`` and ``is_available()`` are not either.
"""

from __future__ import annotations

import functools
import io
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass, field

from cuda2rocm.scan.analyzers import pyrules
from cuda2rocm.scan.report import FileReport

#: files without any of these words have nothing for the Python rules (fast path for large trees)
_WORDS = r"cuda|CUDA|nvml|nvidia|cupy|numba|tensorrt|cudnn|NCCL|cpp_extension|triton|get_device|distributed"


@functools.lru_cache(maxsize=1)
def _interesting() -> re.Pattern[str]:
    """Keywords plus the import names of every knowledge-base plugin (``import flash_attn``)."""
    try:
        from cuda2rocm import knowledge

        names = sorted({n.split(".")[0] for p in knowledge.plugins().values() for n in p.import_names})
    except ImportError:  # pragma: no cover - knowledge ships with the package
        names = []
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


def scan_python(report: FileReport, text: str) -> None:
    if not _interesting().search(text):
        return
    state = pyrules.State(is_setup=report.path.rsplit("/", 1)[-1] == "setup.py")
    for line in logical_lines(report, text):
        pyrules.check_line(report, state, line.tokens)


def logical_lines(report: FileReport, text: str) -> Iterator[Line]:
    current = Line()
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                if current.tokens:
                    yield current
                current = Line()
            elif tok.type not in (tokenize.COMMENT, tokenize.NL, tokenize.INDENT, tokenize.DEDENT):
                current.tokens.append(tok)
    except (tokenize.TokenError, IndentationError, SyntaxError) as exc:
        line = _error_line(exc)
        report.problem("C2R-E105", f"Python tokenizer stopped at line {line}: {_error_text(exc)}", line)
        if current.tokens:
            yield current


def _error_line(exc: Exception) -> int:
    if isinstance(exc, tokenize.TokenError) and len(exc.args) > 1:
        return int(exc.args[1][0])
    return int(getattr(exc, "lineno", 0) or 0)


def _error_text(exc: Exception) -> str:
    return str(exc.args[0]) if exc.args else type(exc).__name__
