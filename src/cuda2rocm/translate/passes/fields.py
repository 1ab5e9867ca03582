"""Struct fields whose HIP name depends on the ROCm release.

- ``cudaPointerAttributes::type``: ROCm up to 5.4 names the field of ``hipPointerAttribute_t`` ``memoryType``
  (HIP 5.0.2, 5.2.3 and 5.3.0 headers and struct references); 5.5 has both names (a union), 6.0 only ``type``.
  For targets before 5.5, ``attrs.type`` / ``p->type`` on a variable declared ``cudaPointerAttributes`` becomes
  ``memoryType`` (C2R-A105); ``memoryType`` exists through 5.5, so the rewrite is right for 5.4 as well.
"""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.mapping.version import parse_version
from cuda2rocm.model import Edit
from cuda2rocm.source.tokens import IDENT
from cuda2rocm.translate import rules
from cuda2rocm.translate.context import Context

RULE = "field:rename"
_POINTER_ATTRIBUTES = "cudaPointerAttributes"
_BEFORE = parse_version("5.5")


def edits(ctx: Context) -> Iterator[Edit]:
    if _POINTER_ATTRIBUTES not in ctx.text or not ctx.settings.target or parse_version(ctx.settings.target) >= _BEFORE:
        return
    toks = ctx.tokens
    names: set[str] = set()
    for i in ctx.positions(_POINTER_ATTRIBUTES):
        if toks[i].kind != IDENT:
            continue
        before = ctx.prev_code(i)
        if before < 0 or toks[before].src not in (".", "->", "::"):
            names.update(_declared(ctx, i))
    if not names:
        return
    for i in sorted(i for name in names for i in ctx.positions(name)):
        if toks[i].kind != IDENT:
            continue
        dot = ctx.next_code(i)
        field = ctx.next_code(dot) if dot >= 0 else -1
        if dot < 0 or field < 0 or toks[dot].src not in (".", "->") or toks[field].src != "type":
            continue
        ctx.report(rules.FALLBACK, toks[field].offset,
                   f"cudaPointerAttributes::type is hipPointerAttribute_t::memoryType in ROCm "
                   f"{ctx.settings.target} (type arrived in ROCm 5.5); emitted memoryType")
        yield Edit(toks[field].offset, toks[field].end, "memoryType", RULE)


def _declared(ctx: Context, i: int) -> Iterator[str]:
    """The names a declaration starting at the type token ``i`` declares: ``cudaPointerAttributes a, *b;``,
    ``(const cudaPointerAttributes& attrs)``."""
    toks = ctx.tokens
    j = ctx.next_code(i)
    while 0 <= j < len(toks):
        while 0 <= j < len(toks) and toks[j].src in ("*", "&", "const", "volatile"):
            j = ctx.next_code(j)
        if not 0 <= j < len(toks) or toks[j].kind != IDENT:
            return
        yield toks[j].src
        j = ctx.next_code(j)
        while 0 <= j < len(toks) and toks[j].src == "[":  # an array: a[2]
            j = ctx.next_code(ctx.brackets().get(j, len(toks)))
        if not 0 <= j < len(toks) or toks[j].src != ",":
            return
        j = ctx.next_code(j)
