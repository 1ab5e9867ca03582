"""Run every device-code rule over one file and turn the hits into findings, fixes and markers."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from cuda2rocm.hazards.context import NOTHING_INHERITED, Hit, Inherited, Source
from cuda2rocm.hazards.groups import settle
from cuda2rocm.hazards.symbols import inherited_uses
from cuda2rocm.hazards.targets import resolve
from cuda2rocm.model import Applicability, Edit, Finding, Fix
from cuda2rocm.rules import RULES, Rule
from cuda2rocm.source.edits import SpanIndex, fix_edits, select
from cuda2rocm.source.platform import switches
from cuda2rocm.source.structure import Function
from cuda2rocm.source.tokens import NL, LineIndex, Token

FAMILY = "device"
#: the rules whose safe fixes ``convert`` applies without ``--fix-hazards``: what they rewrite can never compile for
#: an AMD GPU (inline PTX), and the rewrite is C++ of exactly the same meaning (``data/ptx_rewrites.csv``)
ALWAYS_FIXED = frozenset({"C2R-K301"})
#: a finding's fix text where ``convert`` applied its fix without being asked
REWRITTEN = "rewritten by convert to C++ of the same meaning"
#: the start of a finding's fix text when ``--fix-hazards`` resolves it (by its own edits or its group's)
SAFE_FIX = "safe fix available (--fix-hazards)"
Check = Callable[[Source], Iterable[Hit]]
#: bracket pairs and functions of a token list (``match_brackets``, ``find_functions``)
Structure = tuple[dict[int, int], list[Function]]


class _Rules(NamedTuple):
    """The device rules by id and, for the prefilter, every ``requires`` string with the rules that name it."""

    size: int  # the registry size they were computed at (once per registry state, not per file)
    rules: tuple[Rule, ...]
    by_string: dict[str, tuple[str, ...]]  # requires string -> ids of the rules that name it
    always: frozenset[str]  # ids of the rules without requires strings


_device_rules = _Rules(-1, (), {}, frozenset())


def _rules() -> _Rules:
    global _device_rules
    import cuda2rocm.hazards.rules  # noqa: F401  (registers the rules)

    if _device_rules.size != len(RULES):
        found = sorted((r for r in RULES.values() if r.family == FAMILY and r.check is not None), key=lambda r: r.id)
        by_string: dict[str, list[str]] = {}
        for r in found:
            for s in r.requires:
                by_string.setdefault(s, []).append(r.id)
        _device_rules = _Rules(len(RULES), tuple(found), {s: tuple(ids) for s, ids in by_string.items()},
                               frozenset(r.id for r in found if not r.requires))
    return _device_rules


def device_rules() -> list[Rule]:
    return list(_rules().rules)


def _runnable(table: _Rules, text: str) -> set[str]:
    """Ids of the device rules that can report on ``text``: those without ``requires`` strings and those with one
    of theirs in it (each string searched once per text, however many rules name it)."""
    return {rule for s, ids in table.by_string.items() if s in text for rule in ids} | table.always


def hits(tokens: Sequence[Token], text: str, path: str, target_gpu: str = "MI300X",
         rocm: str | None = None, structure: Structure | None = None, *, pairs: dict[int, int] | None = None,
         lines: LineIndex | None = None, prefilter: bool = True,
         inherited: Inherited = NOTHING_INHERITED) -> list[Hit]:
    """The hits of every device rule. ``inherited``: the constants the file sees from its headers (the
    project model's); a hit on a line that uses one names its value and definition.

    ``structure`` / ``pairs`` / ``lines``: computed by the caller from the same
    tokens and text (bracket pairs and functions, bracket pairs alone, the line index): not computed again.
    ``prefilter``: skip the rules whose :attr:`Rule.requires` strings the text lacks (False: run every rule, the
    reference the prefilter is tested against)."""
    src = Source(tokens, text, path, resolve(target_gpu), rocm, inherited)
    if structure is not None:  # fill the lazy attributes
        src.__dict__["pairs"], src.__dict__["functions"] = structure
    elif pairs is not None:
        src.__dict__["pairs"] = pairs
    if lines is not None:
        src.__dict__["lines"] = lines
    found: list[Hit] = []
    table = _rules()  # once per analysis
    run = _runnable(table, text) if prefilter else None
    for rule in table.rules:
        assert rule.check is not None
        if run is None or rule.id in run:
            found.extend(rule.check(src))
    settled = _live(tokens, text, settle(src, _dedupe(found)))
    return [_with_origins(src, h) for h in settled] if inherited.env else settled


def _live(tokens: Sequence[Token], text: str, found: list[Hit]) -> list[Hit]:
    """The hits outside the CUDA-only branches of the file's explicit platform switches and off the platform names
    of their conditions (:mod:`cuda2rocm.source.platform`): code hipcc never compiles for AMD is no hazard of
    the port."""
    if not found:
        return found
    sw = switches(tokens, text)
    if not (sw.dead or sw.kept):
        return found
    dead = SpanIndex(sw.dead)
    return [h for h in found if h.index not in sw.kept and tokens[h.index].offset not in dead]


def _with_origins(src: Source, hit: Hit) -> Hit:
    """``hit`` with the definitions of the inherited constants its line uses: "(WARP_W = 32 at cfg.h:12)"."""
    first = last = hit.index
    while first > 0 and src.kind(first - 1) != NL:
        first -= 1
    while last + 1 < len(src.tokens) and src.kind(last + 1) != NL:
        last += 1
    names = inherited_uses(src, first, last)
    if not names:
        return hit
    where = "; ".join(w for n in names[:_ORIGINS] if (w := src.inherited.where(n)) not in hit.message)
    return dataclasses.replace(hit, message=f"{hit.message} ({where})") if where else hit


#: at most this many inherited definitions are named in one message
_ORIGINS = 3


def _dedupe(found: list[Hit]) -> list[Hit]:
    seen: set[tuple[str, int]] = set()
    out: list[Hit] = []
    for h in sorted(found, key=lambda h: (h.index, h.rule)):
        if (h.rule, h.index) not in seen:
            seen.add((h.rule, h.index))
            out.append(h)
    return out


def to_findings(tokens: Sequence[Token], text: str, path: str, found: Iterable[Hit],
                lines: LineIndex | None = None) -> list[Finding]:
    lines = LineIndex(text) if lines is None else lines
    return sorted((to_finding(tokens, text, lines, path, h) for h in found), key=Finding.sort_key)


def to_finding(tokens: Sequence[Token], text: str, lines: LineIndex, path: str, hit: Hit) -> Finding:
    line, col = lines.line_col(tokens[hit.index].offset)
    rule = RULES[hit.rule]
    remedy = remedy_of(text, hit)
    if remedy is not None and remedy.applicability != Applicability.SAFE:
        fix = f"{remedy.applicability} fix available (--fix-hazards)"
    else:
        fix = SAFE_FIX if hit.edits or hit.covered else ""
    if hit.note:
        fix = f"{fix}, {hit.note}" if fix else hit.note[0].upper() + hit.note[1:]
    return rule.finding(path, line, col, hit.message, fix=fix, remedy=remedy)


def remedy_of(text: str, hit: Hit) -> Fix | None:
    """The hit's edits as a :class:`Fix` titled by what they replace (None when the hit has none)."""
    if not hit.edits:
        return None
    changes = "; ".join(f"replace `{text[e.start:e.end]}` with `{e.replacement}`" for e in hit.edits)
    return Fix(changes[:1].upper() + changes[1:], hit.edits, hit.applicability)


def safe_edits(found: Iterable[Hit], *, unsafe: bool = True) -> list[Edit]:
    """Non-overlapping edits of the hits' fixes, in source order (the one overlap policy, ``select``).

    ``unsafe``: include fixes whose applicability is ``unsafe`` (``--fix-hazards`` does, as it always has)."""
    fixes = (Fix("", h.edits, h.applicability) for h in found if h.edits)
    return select(fix_edits(fixes, unsafe=unsafe))[0]
