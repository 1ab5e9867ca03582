"""CUDA and C/C++ sources: kernels, CUDA API references per library, library headers, inline PTX, hazards.

Works on the lossless token stream, so identifiers in comments and strings never count.
"""

from __future__ import annotations

import re

from cuda2rocm.model import InputProblem
from cuda2rocm.project.recognise import is_hip_code
from cuda2rocm.scan import rocm_path, rules
from cuda2rocm.scan.analyzers import apinames
from cuda2rocm.scan.filefacts import FileFacts
from cuda2rocm.source.declared import defined_names
from cuda2rocm.source.structure import Function, find_functions, match_brackets
from cuda2rocm.source.tokens import (
    HEADER,
    IDENT,
    PUNCT,
    STRING,
    TRIVIA,
    LineIndex,
    Token,
    TokenizeError,
    check,
    tokenize,
)

#: C/C++ files without any of these are not CUDA-bearing and are not tokenized (fast path)
_MARKERS = re.compile(r"cuda|CUDA|__global__|__device__|nccl|thrust|cub::|cutlass|NvInfer|nvtx|nvml|cublas|cudnn"
                      r"|cufft|curand|cusparse|cusolver|nvrtc")


#: the tag of a C/C++ file that shows no sign of CUDA (scan reads it again as device code when a CUDA file
#: includes it: :func:`cuda2rocm.scan.api.scan`)
PLAIN = "no-cuda-markers"


def scan_cxx(report: FileFacts, text: str, target_gpu: str, *, included: bool = False) -> None:
    """``included``: a CUDA file includes this one, so its code is device code whatever it shows."""
    is_cuda = report.language == "cuda"
    if not is_cuda and not included and not _MARKERS.search(text):
        report.tags.add(PLAIN)
        return
    tokens = tokenize(text)
    try:
        check(tokens, text)
    except TokenizeError as exc:  # the rest of the file is one comment or literal: say where it starts
        report.problem(rules.E105, f"{exc.message} (the rest of the file is read as part of it)", exc.line)
    index = LineIndex(text)
    structure = _structure(tokens)
    kernels = [f.name_index for f in structure[1] if f.is_kernel] if structure else []
    first_ref = _references(report, tokens, index)
    if is_cuda and not first_ref and is_hip_code(tokens):  # already HIP (hipMalloc, <hip/...>): not a port
        report.tags.add("hip-source")
        report.count("hip_kernels", len(kernels))
        _hazards(report, tokens, text, target_gpu, structure)
        _rocm_path(report, tokens, index)
        return
    report.count("kernels", len(kernels))
    if is_cuda:
        line = index.line(tokens[kernels[0]].offset) if kernels else 1
        report.add(rules.S103, line, 1, f"CUDA source with {len(kernels)} kernel(s)")
    elif first_ref or kernels:
        report.tags.add("cuda-in-cpp")
        line = first_ref or index.line(tokens[kernels[0]].offset)
        report.add(rules.S104, line, 1, "C/C++ file uses CUDA (headers or API); translate it with the .cu files")
    if is_cuda or "cuda-in-cpp" in report.tags:
        _hazards(report, tokens, text, target_gpu, structure)
        _convert_dialect(report, tokens, text, index)
    elif included:  # a header of CUDA code: its constants and device helpers are the includer's
        _hazards(report, tokens, text, target_gpu, structure)
    if _HIP_HINT.search(text):
        _rocm_path(report, tokens, index)


_HIP_HINT = re.compile(r"__HIP_PLATFORM_AMD__|__HIP_PLATFORM_HCC__|__HIPCC__|USE_ROCM|hip/hip_runtime")


def _rocm_path(report: FileFacts, tokens: list[Token], index: LineIndex) -> None:
    """``#if defined(__HIP_PLATFORM_AMD__)``, ``#include <hip/hip_runtime.h>`` in code (not comments)."""
    for tok in tokens:
        header = tok.kind in (HEADER, STRING) and tok.pp and tok.src[1:].startswith("hip/")
        if (tok.kind == IDENT and tok.src in rocm_path.WORDS) or header:
            line, col = index.line_col(tok.offset)
            rocm_path.note(report, line, col, tok.src)
            return


def _structure(tokens: list[Token]) -> tuple[dict[int, int], list[Function]] | None:
    """Bracket pairs and functions (shared with the hazard analysis); None when no kernel can exist."""
    if not any(t.src == "__global__" for t in tokens if t.kind == IDENT):
        return None
    pairs = match_brackets(tokens)
    return pairs, find_functions(tokens, pairs)


def _references(report: FileFacts, tokens: list[Token], index: LineIndex) -> int:
    """Record API/header references and inline asm; return the line of the first CUDA reference (0: none).

    A name the tables do not know that the file declares itself (``#define cudaCheck(x)``, ``int cuda_arch;``) is
    the project's, not an API; names the tables do not know are judged against the whole project's
    declarations when the scan merges (:func:`cuda2rocm.scan.merge.unknown_use_findings`).
    """
    first = 0
    seen: set[str] = set()
    declared: frozenset[str] | None = None
    n = len(tokens)
    for i in _candidates(tokens):
        tok = tokens[i]
        name = _ref_name(tokens, i, n)
        if not name:
            continue
        line = index.line(tok.offset)
        if name == "asm":
            report.count("inline_asm")
            continue
        unknown = tok.kind == IDENT and "::" not in name and apinames.lookup(name).support == "unknown"
        if unknown:
            if declared is None:
                declared = defined_names(tokens)
                report.declared = {d for d in declared if apinames.is_cuda_identifier(d)}
            if name in declared:
                continue
        first = first or line
        report.api(name, line)
        if name not in seen:
            seen.add(name)
            col = index.line_col(tok.offset)[1]
            if unknown:
                report.unknown_uses.append((name, line, col))
            else:
                _library_first_use(report, name, line, col)
            if tok.kind == IDENT and name.startswith("nccl") and "nccl" not in report.tags:
                report.tags.add("nccl")
                report.evidence("multi-gpu", line, f"NCCL API {name}")  # communicators: several GPUs
    return first


def _candidates(tokens: list[Token]) -> list[int]:
    """Indexes of the only tokens ``_ref_name`` can name: headers, directive strings and the identifiers that
    are CUDA names, namespaces or ``asm`` (each distinct name is judged once)."""
    verdict: dict[str, bool] = {}
    out: list[int] = []
    for i, (kind, src, _, pp) in enumerate(tokens):
        if kind == IDENT:
            ok = verdict.get(src)
            if ok is None:
                ok = verdict[src] = (src in _ASM or src in apinames.NAMESPACES
                                     or apinames.is_cuda_identifier(src))
            if ok:
                out.append(i)
        elif kind == HEADER or (kind == STRING and pp):
            out.append(i)
    return out


_ASM = frozenset({"asm", "__asm__"})


def _ref_name(tokens: list[Token], i: int, n: int) -> str:
    tok = tokens[i]
    if tok.kind == HEADER or (tok.kind == STRING and tok.pp):
        header = tok.src[1:-1]
        return header if apinames.is_cuda_header(header) else ""
    if tok.kind != IDENT or (tok.pp and tok.src in ("include", "define", "ifdef", "ifndef", "if", "defined")):
        return ""
    src = tok.src
    if src in ("asm", "__asm__") and _next_code(tokens, i + 1, n) in ("volatile", "(", "__volatile__"):
        return "asm"
    if src in apinames.NAMESPACES and _next_code(tokens, i + 1, n) == "::":
        if i > 1 and tokens[i - 1].src == "::":  # the second part of thrust::cuda::par
            return ""
        return _qualified(tokens, i, n)
    return src if apinames.is_cuda_identifier(src) else ""


def _next_code(tokens: list[Token], i: int, n: int) -> str:
    while i < n and tokens[i].kind in TRIVIA:
        i += 1
    return tokens[i].src if i < n else ""


def _qualified(tokens: list[Token], i: int, n: int) -> str:
    """``thrust::sort_by_key`` (namespace plus the next name)."""
    j = i + 1
    while j < n and tokens[j].kind in TRIVIA:
        j += 1
    k = j + 1
    while k < n and tokens[k].kind in TRIVIA:
        k += 1
    if j < n and tokens[j].kind == PUNCT and k < n and tokens[k].kind == IDENT:
        return f"{tokens[i].src}::{tokens[k].src}"
    return tokens[i].src


def _library_first_use(report: FileFacts, name: str, line: int, col: int) -> None:
    found = apinames.first_use_finding(name)
    if found is not None:
        report.add(found[0], line, col, found[1])


def _hazards(report: FileFacts, tokens: list[Token], text: str, target_gpu: str,
             structure: tuple[dict[int, int], list[Function]] | None) -> None:
    from cuda2rocm import hazards
    from cuda2rocm.project import includes

    try:
        inherited = includes.seen_by(report.path, tokens, text)
        report.includes = inherited.headers
        found = hazards.analyze(tokens, text, report.path, target_gpu=target_gpu, structure=structure,
                                inherited=inherited)
    except Exception as exc:  # a bug in one analysis must not lose the rest of the file
        report.problems.append(_internal(report.path, f"hazard analysis failed: {type(exc).__name__}: {exc}"))
        return
    report.findings.extend(found)


def _convert_dialect(report: FileFacts, tokens: list[Token], text: str, index: LineIndex) -> None:
    """What convert's dialect pass rewrites in this file, reported with convert's own findings and facts: a
    ``#pragma weak`` alias of a host entity (C2R-A115) and ``std::printf`` in device code (C2R-K509)."""
    weak = "weak" in text and "pragma" in text
    std = "std" in text and "printf" in text
    if not (weak or std):
        return
    from cuda2rocm.hazards import devicecalls
    from cuda2rocm.rules import RULES
    from cuda2rocm.translate.context import Context
    from cuda2rocm.translate.options import Options
    from cuda2rocm.translate.passes import dialect

    ctx = Context.create(text, report.path, tokens, Options())
    if weak:
        list(dialect.weak_aliases(ctx))
        report.findings.extend(ctx.findings)
    if std:
        k509 = RULES["C2R-K509"]
        names = {t.offset: t.src for t in tokens if t.kind == IDENT and t.src in devicecalls.convert_rewrites()}
        for edit in dialect._std_in_device_code(ctx):  # each edit drops a `std::` before the name it qualifies
            line, col = index.line_col(edit.start)
            name = names.get(edit.end, "")
            qualified = text[edit.start:edit.end].replace(" ", "") + name
            report.findings.append(k509.finding(
                report.path, line, col, f"'{qualified}' in device code names the host function under hipcc; "
                f"convert rewrites it to HIP's device '{name}'", fix="`cuda2rocm convert` drops the `std::`"))


def _internal(path: str, message: str) -> InputProblem:
    return InputProblem(path, message, 0, {"internal": "1"})
