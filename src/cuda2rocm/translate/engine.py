"""Translate one text: tokenize, run the passes, add hazard findings, apply the edits."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

from cuda2rocm.batch import gc_paused
from cuda2rocm.hazards.engine import ALWAYS_FIXED, REWRITTEN
from cuda2rocm.model import Edit, Failed, FileResult, Finding, Severity, Skipped, Translated, Unchanged
from cuda2rocm.project.recognise import is_hip_code
from cuda2rocm.results.stats import FileStats
from cuda2rocm.source import tokens as tk
from cuda2rocm.source.edits import SpanIndex
from cuda2rocm.source.platform import switches
from cuda2rocm.translate import apply, hazards, rules
from cuda2rocm.translate.context import Context
from cuda2rocm.translate.options import Options
from cuda2rocm.translate.passes import (
    dialect,
    fields,
    helpers,
    identifiers,
    includes,
    launches,
    overloads,
    runtime_include,
    versions,
)

Pass = Callable[[Context], Iterator[Edit]]
#: Passes whose edits are independent; runtime_include runs after them (it needs what they found).
PASSES: tuple[Pass, ...] = (identifiers.edits, includes.edits, launches.edits, overloads.edits,
                            overloads.vector_operators, dialect.edits, helpers.edits, fields.edits)



class Outcome(NamedTuple):
    result: FileResult
    stats: FileStats


def translate_text(text: str, path: str, options: Options, output: str = "", source: Path | None = None,
                   renames_cu: bool = False) -> Outcome:
    """Never raises for bad input: the result is then :class:`Failed` with a line where known.

    ``source``: the file ``text`` was read from, so names its local headers define are known. ``renames_cu``:
    this run writes ``.cu`` files under the ``cu_suffix`` name, so ``#include "x.cu"`` must follow.
    """
    started = time.perf_counter()
    try:
        with gc_paused():
            result, ctx = _translate(text, path, options, output or path, source, renames_cu)
    except tk.TokenizeError as exc:
        result, ctx = Failed(path, exc.message, exc.line), None
    except Exception as exc:  # a bug must not stop the other files: report it on this one
        result, ctx = Failed(path, f"internal error: {type(exc).__name__}: {exc}"), None
    return Outcome(result, _stats(result, ctx, text, time.perf_counter() - started))


def _translate(text: str, path: str, options: Options, output: str,
               source: Path | None = None, renames_cu: bool = False) -> tuple[FileResult, Context]:
    tokens = tk.take_tokens(text)
    tk.check(tokens, text)
    ctx = Context.create(text, path, tokens, options, source)
    ctx.renames_cu = renames_cu
    edits = [e for run in PASSES for e in run(ctx)]
    if not edits and is_hip_code(tokens, text):
        return Skipped(path, "already HIP (includes hip/ headers or calls hip* APIs)"), ctx
    edits = _live(ctx, edits)
    edits.extend(runtime_include.edits(ctx))
    edits = versions.with_block(ctx, edits)  # after _live: a platform switch's CUDA-only branches do not count
    ahead, behind = _hazard_edits(ctx, edits)
    edits = ahead + edits + behind  # insertions at one point apply in list order
    edits, findings = _outside_own(ctx, edits, ctx.findings)
    if not edits:
        return Unchanged(path, findings), ctx
    new_text = apply.apply(text, edits)
    ordered = tuple(apply.ordered(edits))
    if new_text == text:
        return Unchanged(path, findings), ctx
    return Translated(path, output, new_text, ordered, findings), ctx


def _live(ctx: Context, edits: list[Edit]) -> list[Edit]:
    """The edits (and translation findings) outside the CUDA-only branches of the file's explicit platform
    switches and off the platform names of their conditions (:mod:`cuda2rocm.source.platform`): a file that
    already has a HIP branch keeps it live and its CUDA branch as written."""
    sw = switches(ctx.tokens, ctx.text)
    if not (sw.dead or sw.kept):
        return edits
    kept = [(ctx.tokens[k].offset, ctx.tokens[k].end) for k in sw.kept]
    off = SpanIndex([*sw.dead, *kept])
    ctx.dead = SpanIndex(sw.dead)
    ctx.findings[:] = [f for f in ctx.findings if not hazards.inside(ctx.index, f, off)]
    return [e for e in edits if e.start not in off and not off.reaches_past(e.end, e.start)]


def _hazard_edits(ctx: Context, edits: list[Edit]) -> tuple[list[Edit], list[Edit]]:
    """The hazard fixes and marker comments that apply beside the translation's ``edits``: (those that go before
    a translation edit inserting at the same point, the others)."""
    want, fix = ctx.options.hazards, ctx.options.fix_hazards
    if not (want or fix):
        return [], []
    found, fixes = hazards.analyze(ctx.tokens, ctx.text, ctx.path, ctx.settings.target, findings=want,
                                   fix_rules=None if fix else ALWAYS_FIXED, pairs=ctx.pairs,
                                   functions=ctx.function_list, lines=ctx.index)
    if want:
        ctx.findings.extend(hazards.unresolved(found, ctx.text, ctx.index, edits, ctx.findings))
    if not fix:
        return [], _always_fixed(ctx, fixes, edits)
    ok, clash = apply.select(fixes, kept=edits)
    ctx.findings[:] = _not_rewritten(ctx, ctx.findings, ok)
    for e in clash:
        ctx.report(rules.HAZARD_FIX_CONFLICT, e.start, f"hazard fix {e.rule or '?'} overlaps a translation edit")
    marks = hazards.markers(ctx.tokens, ctx.index, ctx.findings, ok + clash)  # a clash is reported as A109
    return _place_markers(marks, edits + ok, ok)


def _always_fixed(ctx: Context, fixes: list[Edit], edits: list[Edit]) -> list[Edit]:
    """Without ``--fix-hazards``: the ``fixes`` (:data:`ALWAYS_FIXED` rules' only) that apply beside the
    translation's ``edits``; their findings say so and drop to ``info`` (nothing is left to do)."""
    ok, _ = apply.select(fixes, kept=edits)
    if ok:
        done = SpanIndex.of(ok)
        ctx.findings[:] = [dataclasses.replace(f, severity=Severity.INFO, fix=REWRITTEN, remedy=None)
                           if f.rule in ALWAYS_FIXED and hazards.inside(ctx.index, f, done) else f
                           for f in ctx.findings]
    return ok


def _place_markers(marks: list[Edit], kept: list[Edit], ok: list[Edit]) -> tuple[list[Edit], list[Edit]]:
    """Markers go at the first token of their line, where another edit may insert too: after an inserted line
    (the runtime include, a helper header: text that ends a line), before inserted code (``hipLaunchKernelGGL(``
    before a launch's kernel name). A marker left out there would be added by a second run."""
    placed, _ = apply.select(marks, kept=[e for e in kept if e.start != e.end])
    before_code = {e.start for e in kept if e.start == e.end and not e.replacement.endswith("\n")}
    return [m for m in placed if m.start in before_code], ok + [m for m in placed if m.start not in before_code]


def _outside_own(ctx: Context, edits: list[Edit], found: list[Finding]) -> tuple[list[Edit], tuple[Finding, ...]]:
    """The edits and findings (sorted) that are not about the text of a helper header an earlier run inserted."""
    spans = helpers.own_spans(ctx)
    if spans:
        own = SpanIndex(spans)
        # an insertion at a span's start goes before the header, not into it
        edits = [e for e in edits if not (e.start in own and (e.end > e.start or e.start - 1 in own))]
        found = [f for f in found if not hazards.inside(ctx.index, f, own)]
    return edits, tuple(sorted(found, key=Finding.sort_key))


def _not_rewritten(ctx: Context, found: list[Finding], fixes: list[Edit]) -> list[Finding]:
    """Drop translation findings (C2R-A...) about code that an applied hazard fix rewrites (``__stcs(p, v)``
    reported as having no HIP equivalent, then replaced by a plain store)."""
    if not fixes:
        return found
    spans = SpanIndex.of(fixes)
    return [f for f in found if not (f.rule.startswith("C2R-A") and hazards.inside(ctx.index, f, spans))]


def _stats(result: FileResult, ctx: Context | None, text: str, seconds: float) -> FileStats:
    status = type(result).__name__.lower()
    lines = tk.count_lines(text)
    if ctx is None:
        return FileStats(result.path, status, lines, seconds=seconds)
    findings = len(getattr(result, "findings", ()))
    return FileStats(result.path, status, lines, dict(ctx.converted), ctx.unsupported, findings, seconds)
