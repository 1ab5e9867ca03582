"""``#include <cuda_runtime.h>`` -> ``#include <hip/hip_runtime.h>`` through the header table."""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.lazyre import lazy
from cuda2rocm.model import Edit
from cuda2rocm.source.directives import include_operands
from cuda2rocm.source.tokens import HEADER, IDENT, NL, PUNCT, STRING
from cuda2rocm.translate import data, rules, tables
from cuda2rocm.translate.context import Context
from cuda2rocm.translate.decide import ROC_BY_DEFAULT
from cuda2rocm.translate.passes.helpers import provided

HIP_RUNTIME = "hip/hip_runtime.h"
_CUDA_HEADER = lazy(
    r"(?:cuda|cu[a-z]+|nv[a-zA-Z_]*|npp|mma|sm_\d+|crt/|cooperative_groups|thrust/system/cuda|cub/)",
)
_RUNTIME_HEADERS = frozenset({"hip/hip_runtime.h"})
#: HIP headers that use hip_runtime.h's macros without including it (HIP 5.2's hip_cooperative_groups.h needs
#: hipBlockDim_z from amd_hip_runtime.h): the runtime must be included before them
_NEED_RUNTIME_FIRST = frozenset({"hip/hip_cooperative_groups.h"})
#: CUDA headers that bring another one in (cuda_bf16.h includes cuda_fp16.h, so code that includes only the bf16
#: header uses `half` too); HIP's counterpart does not, so the companion is included after it
_COMPANIONS = {"cuda_bf16.h": ("cuda_fp16.h", "hip/hip_fp16.h")}


def _mirrored(name: str) -> str:
    """CUB's and Thrust's CUDA-system headers by pattern: every ``cub/...cuh`` is in hipCUB's umbrella header
    ``hipcub/hipcub.hpp``; rocThrust keeps Thrust's tree with ``system/hip`` for ``system/cuda``."""
    if name.startswith("cub/") and name.endswith(".cuh"):
        return "hipcub/hipcub.hpp"
    if name.startswith("thrust/system/cuda/"):
        return "thrust/system/hip/" + name.removeprefix("thrust/system/cuda/")
    return ""


def _local(ctx: Context, name: str) -> bool:
    """A quoted include that exists next to the file is the project's own header, not the CUDA toolkit's."""
    return ctx.source is not None and (ctx.source.parent / name).is_file()


def _companion(ctx: Context, name: str, included: set[str]) -> str:
    """``\n#include <hip/hip_fp16.h>`` after cuda_bf16.h's translation, unless the file includes cuda_fp16.h
    (``included``: the names of all the file's includes)."""
    if name not in _COMPANIONS:
        return ""
    cuda, hip = _COMPANIONS[name]
    if cuda in included or hip in included:
        return ""
    newline = "\r\n" if "\r\n" in ctx.text[:4096] else "\n"
    return f"{newline}#include <{hip}>"


def _drop(ctx: Context, operand: int, name: str) -> Edit | None:
    """The edit that empties the line of ``#include <name>``, a header without a HIP counterpart in the target
    release, when the file uses none of the names it declares (``header_names.csv``; names a header of ours
    defines for this target, ``CUDART_PI_F`` before ROCm 5.3, do not count); None to keep it and report."""
    declared = data.header_names().get(name)
    if declared is None:
        return None
    if any(declared.declares(n) and not provided(ctx, n) for n in _identifiers(ctx)):
        return None
    tokens = ctx.tokens
    start = operand
    while start > 0 and not (tokens[start].kind == PUNCT and tokens[start].src == "#"):
        start -= 1
    end = operand
    while end < len(tokens) and tokens[end].kind != NL:
        end += 1
    stop = tokens[end].offset if end < len(tokens) else len(ctx.text)
    ours = {data.helper_functions()[n] for n in _identifiers(ctx) if declared.declares(n) and provided(ctx, n)}
    instead = f"; the names it declares that the file uses are defined by {', '.join(sorted(ours))}" if ours else (
        "; the file uses none of the names it declares")
    ctx.report(rules.HEADER_DROPPED, tokens[operand].offset,
               f"{name} has no HIP counterpart in ROCm {ctx.settings.target}{instead}: include dropped")
    ctx.converted[("headers", "dropped")] += 1
    return Edit(tokens[start].offset, stop, "", "headers:dropped")


def _identifiers(ctx: Context) -> frozenset[str]:
    """Every identifier of the file (code and directives), made on first use."""
    if ctx.identifiers is None:
        ctx.identifiers = frozenset(t.src for t in ctx.tokens if t.kind == IDENT)
    return ctx.identifiers


def edits(ctx: Context) -> Iterator[Edit]:
    operands = list(include_operands(ctx.tokens))
    included = {ctx.tokens[j].src[1:-1] for j in operands}  # once: every companion check looks at all of them
    for j in operands:
        tok = ctx.tokens[j]
        name = tok.src[1:-1]
        if name in _RUNTIME_HEADERS:
            ctx.has_hip_runtime = True
        entry = tables.header(name)
        if entry is not None and tok.kind == STRING and _local(ctx, name):
            continue  # "math_constants.h" next to the file is the project's own header, not CUDA's
        mirrored = _mirrored(name) if entry is None else ""
        if mirrored:  # cub/block/block_reduce.cuh, thrust/system/cuda/memory.h: a tree the ROCm library mirrors
            ctx.converted[("headers", "include")] += 1
            yield Edit(tok.offset, tok.end, tok.src[0] + mirrored + tok.src[-1], "headers:include")
            continue
        if entry is None and ctx.renames_cu and tok.kind == STRING and name.endswith(".cu") and _local(ctx, name):
            ctx.converted[("headers", "include")] += 1  # #include "kernel.cu", converted to kernel.hip in this run
            renamed = name[: -len(".cu")] + ctx.options.cu_suffix
            yield Edit(tok.offset, tok.end, tok.src[0] + renamed + tok.src[-1], "headers:renamed-source")
            continue
        if entry is None:
            if _CUDA_HEADER().match(name) and (tok.kind == HEADER or not _local(ctx, name)):
                ctx.report(rules.UNSUPPORTED_HEADER, tok.offset, f"unknown CUDA header <{name}>; kept")
            continue
        roc = ctx.options.roc or entry.library in ROC_BY_DEFAULT
        hip = entry.resolve(ctx.settings.target, roc=roc)
        if not hip:
            dropped = _drop(ctx, j, name)
            if dropped is not None:
                yield dropped
                continue
            ctx.unsupported += 1
            why = f": {entry.note}" if entry.note else ""
            if entry.hip and not roc:  # a HIP header that arrived after the target release
                ctx.report(rules.UNSUPPORTED_HEADER, tok.offset, f"{name} -> {entry.hip} is not available in ROCm "
                           f"{ctx.settings.target} (added in ROCm {entry.hip_added}){why}; kept")
            else:
                ctx.report(rules.UNSUPPORTED_HEADER, tok.offset, f"{name} has no HIP equivalent in ROCm "
                           f"{ctx.settings.target}{why}; kept")
            continue
        if hip in _NEED_RUNTIME_FIRST and not ctx.has_hip_runtime:
            ctx.runtime_first = True
        ctx.has_hip_runtime |= hip in _RUNTIME_HEADERS
        if hip != name:
            ctx.converted[("headers", "include")] += 1
            companion = _companion(ctx, name, included)
            yield Edit(tok.offset, tok.end, tok.src[0] + hip + tok.src[-1] + companion, "headers:include")
