"""Bridge to ``cuda2rocm.hazards``: findings always, safe fixes and marker comments with --fix-hazards (the
inline-PTX rewrites of ``hazards.engine.ALWAYS_FIXED`` without it too)."""

from __future__ import annotations

from collections.abc import Sequence

from cuda2rocm import hazards as hz
from cuda2rocm.hazards.engine import SAFE_FIX, hits, safe_edits, to_findings
from cuda2rocm.model import Edit, Finding
from cuda2rocm.project import includes
from cuda2rocm.source.edits import SpanIndex
from cuda2rocm.source.structure import Function
from cuda2rocm.source.tokens import LineIndex, Token

MARKER_RULE = "hazard-marker"


def analyze(tokens: Sequence[Token], text: str, path: str, rocm: str, *, findings: bool,
            fix_rules: frozenset[str] | None = None, pairs: dict[int, int] | None = None,
            functions: list[Function] | None = None,
            lines: LineIndex | None = None) -> tuple[list[Finding], list[Edit]]:
    """One hazard analysis of a file: its findings (when ``findings``) and its safe fixes (those of ``fix_rules``
    only when given: ``convert`` without ``--fix-hazards`` applies ``hazards.engine.ALWAYS_FIXED``'s).
    ``pairs``, ``functions``, ``lines``: the translation's bracket pairs, function definitions and line index of
    the same text, shared (``functions`` only with ``pairs``). The constants the file inherits from its headers
    come from the run's include graph (:func:`cuda2rocm.project.includes.seen_by`)."""
    structure = (pairs, functions) if pairs is not None and functions is not None else None
    found = hits(tokens, text, path, rocm=rocm, structure=structure, pairs=pairs, lines=lines,
                 inherited=includes.seen_by(path, tokens, text))
    fixable = found if fix_rules is None else [h for h in found if h.rule in fix_rules]
    return (to_findings(tokens, text, path, found, lines) if findings else []), safe_edits(fixable)


def unresolved(found: Sequence[Finding], text: str, index: LineIndex, edits: Sequence[Edit],
               reported: Sequence[Finding] = ()) -> list[Finding]:
    """``found`` without the hazards the translation itself removes, and without C2R-K802/K805 where the
    translation reports the same comparison (C2R-A110, which says what to do instead).

    Removed by the translation: K805 where the macro it names was translated on its line (a CUDA feature macro,
    ``__CUDA_BF16_TYPES_EXIST__``, became the guard of the HIP header the target has for it; a definedness test of
    ``CUDART_VERSION`` became one of ``HIP_VERSION``, which hipcc defines); K803 (``defined(__CUDA_ARCH__)``)
    where ``__CUDA_ARCH__`` on the line became ``__HIP_DEVICE_COMPILE__``; K201 (a 32-bit lane mask) where the
    fallback to a mask-less shuffle (``__shfl_down_sync`` -> ``__shfl_down`` before ROCm 6.2) dropped the mask
    argument itself.
    """
    kept_versions = {f.line for f in reported if f.rule == "C2R-A110"}
    renamed = {index.line(e.start) for e in edits
               if text[e.start:e.end] == "__CUDA_ARCH__" and e.replacement == "__HIP_DEVICE_COMPILE__"}
    macros = ({(index.line(e.start), text[e.start:e.end]) for e in edits if e.replacement}
              if any(f.rule == "C2R-K805" for f in found) else set())  # read only where a K805 may be dropped
    dropped = SpanIndex.of(e for e in edits if e.rule == "fallback:drop-argument")
    out = []
    for f in found:
        if (f.rule == "C2R-K803" and f.line in renamed) or (
                f.rule in ("C2R-K802", "C2R-K805") and f.line in kept_versions) or (
                f.rule == "C2R-K805" and (f.line, f.message.split()[0]) in macros):
            continue
        if f.rule == "C2R-K201" and inside(index, f, dropped):
            continue
        out.append(f)
    return out


def inside(index: LineIndex, finding: Finding, edits: SpanIndex) -> bool:
    """Whether the finding's position lies in the text one of ``edits`` replaces."""
    if not 0 < finding.line <= index.line_count:
        return False
    return index.start(finding.line) + finding.col - 1 in edits


def markers(tokens: Sequence[Token], index: LineIndex, found: Sequence[Finding], fixed: Sequence[Edit]) -> list[Edit]:
    """A ``/* cuda2rocm: ID ... */`` comment before the first token of each line with a hazard no fix covers.

    A hazard counts as fixed when a fix of the same rule edits its line, or when its finding says a safe fix
    resolves it (the use of a ``WARP_SIZE`` macro whose definition the group's fix rewrites). Lines whose start
    lies inside a token (a multi-line comment or raw string) get no marker; their finding is still reported.
    """
    done = {(index.line(e.start), e.rule) for e in fixed}
    token_at = {t.offset: t for t in tokens}
    by_line: dict[int, list[Finding]] = {}
    for f in found:
        if f.fix.startswith(SAFE_FIX):  # resolved by its own fix or by its group's (a use of a fixed WARP_SIZE)
            continue
        if f.rule.startswith("C2R-K") and (f.line, f.rule) not in done and 0 < f.line <= index.line_count:
            by_line.setdefault(f.line, []).append(f)
    edits = []
    for line, items in sorted(by_line.items()):
        offset = index.start(line)
        while offset in token_at and token_at[offset].kind == "WS":
            offset = token_at[offset].end
        if offset not in token_at or token_at[offset].kind in ("NL", "COMMENT"):
            continue
        comment = " ".join(hz.marker(f) for f in sorted(items, key=Finding.sort_key))
        edits.append(Edit(offset, offset, comment + " ", MARKER_RULE))
    return edits
