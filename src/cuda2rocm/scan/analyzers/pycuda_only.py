"""Python code that requires CUDA (issue 32): ``torch.version.cuda`` taken to be a string (C2R-P112), the cuDNN
version compared with a number (C2R-P113), compute capabilities read from ``get_device_properties()``
(C2R-P101), PTX given to Triton's ``inline_asm_elementwise`` (C2R-P114) and PyTorch's OCP FP8 dtypes on a
target whose FP8 is not OCP (C2R-K505).

One logical line of tokens at a time (see :mod:`.python`), with what earlier lines told: the names that hold
``torch.version.cuda``, a device's properties or its major version, and whether the line sits in a block that
already knows ``torch.version.cuda`` is set (``if torch.version.cuda:``, or after ``if torch.version.cuda is
None: return``)."""

from __future__ import annotations

import ast
import re
import tokenize
from dataclasses import dataclass, field

from cuda2rocm.rules import Rule, get
from cuda2rocm.scan import rules
from cuda2rocm.scan.filefacts import FileFacts

Tok = tokenize.TokenInfo
_ORDER = frozenset({"<", "<=", ">", ">="})
_NUMERIC = _ORDER | {"==", "!="}
#: string methods and parsers that raise on None
_STR_METHODS = frozenset({"split", "rsplit", "startswith", "endswith", "replace", "strip", "lstrip", "rstrip",
                          "partition", "rpartition", "lower", "upper", "find", "index", "encode", "format"})
_PARSERS = frozenset({"float", "int", "len", "Version", "parse", "LooseVersion", "StrictVersion", "parse_version"})
#: PTX in a string: an instruction with its type suffix, a register declaration, a special register
_PTX = re.compile(r"\b(?:cvt|mov|prmt|lop3|shf|ld|st|add|sub|mul|mad|fma|ex2|lg2|rcp|rsqrt|sqrt|bfe|bfi|selp|setp|"
                  r"and|or|xor|cvta|tanh|max|min|abs|neg|div|shl|shr|cp|red|atom|mma)\.[a-z0-9]|\.reg\s+\.|%laneid")
_OCP_FP8 = frozenset({"float8_e4m3fn", "float8_e5m2"})


@dataclass
class Requires:
    target_gpu: str = "MI300X"  # the AMD GPU of the port (``--target-gpu``)
    cuda_version: set[str] = field(default_factory=set)  # names holding torch.version.cuda
    cudnn_version: set[str] = field(default_factory=set)  # names holding torch.backends.cudnn.version()
    props: set[str] = field(default_factory=set)  # names holding torch.cuda.get_device_properties(...)
    majors: set[str] = field(default_factory=set)  # names holding a device's major/minor (or computed from them)
    ptx: set[str] = field(default_factory=set)  # names holding PTX text
    guard: tuple[int, bool] | None = None  # (indent, inclusive) of the block where torch.version.cuda is known set
    pending: tuple[int, int, int] | None = None  # (line, col, indent) of `if torch.version.cuda is None:`


def check_line(report: FileFacts, st: Requires, toks: list[Tok], words: list[str], guarded: bool) -> None:
    """``guarded``: the line asks which platform it is on (``torch.version.hip``, ``is_hip()``)."""
    _cuda_version(report, st, toks, words, guarded)
    if guarded:
        return
    _cudnn_version(report, st, toks, words)
    _properties(report, st, toks, words)
    _inline_asm(report, st, toks, words)
    _fp8(report, st, toks, words)


def _at(report: FileFacts, rule: Rule, tok: Tok, message: str) -> None:
    report.add(rule, tok.start[0], tok.start[1] + 1, message)


def _assigned(words: list[str]) -> str:
    """The target of ``name = ...`` / ``self.name = ...`` ("" for other lines: comparisons, calls, tuples)."""
    if "=" not in words:
        return ""
    target = "".join(words[:words.index("=")])
    return target if target.replace(".", "").replace("_", "").isalnum() and not target[0].isdigit() else ""


def _refs(words: list[str], names: set[str]) -> list[tuple[int, int]]:
    """(first, last) word index of each dotted name of the line that is one of ``names`` or starts with one
    (``cuda`` of ``cuda.replace``, ``props.major`` of ``props.major``): the longest such prefix."""
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(words):
        if words[i].isidentifier() and (i == 0 or words[i - 1] != "."):
            j, found = i, -1
            while True:
                if "".join(words[i:j + 1]) in names:
                    found = j
                if not (j + 2 < len(words) and words[j + 1] == "." and words[j + 2].isidentifier()):
                    break
                j += 2
            if found >= 0:
                out.append((i, found))
            i = j + 1
        else:
            i += 1
    return out


def _torch_version_cuda(words: list[str]) -> list[tuple[int, int]]:
    """``torch.version.cuda`` (or ``version.cuda``): (first, last) word index of each."""
    out = []
    for i in range(len(words) - 2):
        if words[i:i + 3] == ["version", ".", "cuda"]:
            first = i - 2 if i >= 2 and words[i - 1] == "." and words[i - 2] == "torch" else i
            out.append((first, i + 2))
    return out


# --- torch.version.cuda ------------------------------------------------------------------------------------------


def _update_guard(st: Requires, indent: int) -> None:
    if st.guard is not None:
        g, inclusive = st.guard
        if not (indent > g or (inclusive and indent >= g)):
            st.guard = None


def _cuda_version(report: FileFacts, st: Requires, toks: list[Tok], words: list[str], guarded: bool) -> None:
    indent = toks[0].start[1]
    if st.pending is not None:
        line, col, pend_indent = st.pending
        st.pending = None
        if indent > pend_indent and words[0] == "raise":
            report.add(rules.P112, line, col, "raises when torch.version.cuda is None: ROCm builds of PyTorch stop "
                       "here (test torch.cuda.is_available(), or accept torch.version.hip)")
        elif indent > pend_indent:  # `return`, a fallback value: the rest of the block knows it is set
            st.guard = (pend_indent, True)
    _update_guard(st, indent)
    subjects = _torch_version_cuda(words) + _refs(words, st.cuda_version)
    if not subjects:
        return
    subjects.sort()
    target = _assigned(words)
    first, last = subjects[0]
    if target and words.index("=") == first - 1 and last == len(words) - 1:  # `v = torch.version.cuda`
        st.cuda_version.add(target)
        return
    if guarded or st.guard is not None:
        return
    head = words[0]
    none_test = any(_is_none_test(words, a, b) for a, b in subjects)
    if head == "assert":
        _at(report, rules.P112, toks[first], "asserts torch.version.cuda: it is None on ROCm builds of PyTorch "
            "(accept torch.version.hip too)")
        return
    if head in ("if", "elif") and none_test:
        colon = _colon(words)
        if colon == len(words) - 1:
            st.pending = (toks[0].start[0], toks[0].start[1] + 1, indent)
        elif colon > 0 and words[colon + 1] == "raise":
            _at(report, rules.P112, toks[0], "raises when torch.version.cuda is None: ROCm builds of PyTorch stop "
                "here (test torch.cuda.is_available(), or accept torch.version.hip)")
        return
    if head in ("if", "elif", "while") and any(_is_set_test(words, a, b) for a, b in subjects):
        if _colon(words) == len(words) - 1:  # `if torch.version.cuda:` guards its block
            st.guard = (indent, False)
        return
    if len(subjects) > 1 and any(w in ("if", "and", "or") for w in words):
        return  # `v.split(".") if v else []`: the line tests it before the use
    for a, b in subjects:
        use = _crash(words, a, b)
        if use:
            _at(report, rules.P112, toks[a], f"{use} on torch.version.cuda, which is None on ROCm builds of PyTorch: "
                "this line raises there (test torch.version.hip, or fall back when it is None)")
            return


def _colon(words: list[str]) -> int:
    """Index of the colon that ends an ``if`` test (the first at bracket depth 0), -1 without one."""
    depth = 0
    for i, w in enumerate(words):
        if w in ("(", "[", "{"):
            depth += 1
        elif w in (")", "]", "}"):
            depth -= 1
        elif w == ":" and depth == 0:
            return i
    return -1


def _is_none_test(words: list[str], a: int, b: int) -> bool:
    """``X is None``, ``X == None``, ``not X``."""
    after = words[b + 1:b + 3]
    return after in (["is", "None"], ["==", "None"]) or (a > 0 and words[a - 1] == "not")


def _is_set_test(words: list[str], a: int, b: int) -> bool:
    """``if X:``, ``if X is not None``, ``if X != None``, ``if X and ...``, ``... and X:``."""
    after = words[b + 1:b + 4]
    return a > 0 and words[a - 1] in ("if", "elif", "while", "and") and (
        after[:1] in ([":"], ["and"]) or after == ["is", "not", "None"] or after[:2] == ["!=", "None"])


def _crash(words: list[str], a: int, b: int) -> str:
    """How the use at words [a, b] raises when the value is None ("" when it does not)."""
    after = words[b + 1] if b + 1 < len(words) else ""
    if after == "." and b + 2 < len(words) and words[b + 2] in _STR_METHODS:
        return f".{words[b + 2]}()"
    if after == "[":
        return "indexing"
    if after in _ORDER or (a > 0 and words[a - 1] in _ORDER):
        return "an ordering comparison"
    if after == "+" or (a > 0 and words[a - 1] == "+"):
        return "string concatenation"
    if a >= 2 and words[a - 1] == "(" and words[a - 2] in _PARSERS and after in (")", ","):
        return f"{words[a - 2]}()"
    return ""


# --- torch.backends.cudnn.version() ------------------------------------------------------------------------------


def _cudnn_version(report: FileFacts, st: Requires, toks: list[Tok], words: list[str]) -> None:
    calls = [i for i in range(len(words) - 3) if words[i:i + 4] == ["cudnn", ".", "version", "("]]
    compares = any(w in _NUMERIC for w in words) and any(t.type == tokenize.NUMBER for t in toks)
    if calls:
        target = _assigned(words)
        if compares:
            _at(report, rules.P113, toks[calls[0]], "torch.backends.cudnn.version() compared with a cuDNN version: "
                "on ROCm it reports MIOpen's version, so the threshold picks the wrong path")
        elif target and words[-2:] == ["(", ")"] and words[-3] == "version":
            st.cudnn_version.add(target)
        return
    refs = _refs(words, st.cudnn_version)
    if refs and compares:
        _at(report, rules.P113, toks[refs[0][0]], f"{''.join(words[refs[0][0]:refs[0][1] + 1])} (from "
            "torch.backends.cudnn.version()) compared with a cuDNN version: on ROCm it is MIOpen's version")


# --- compute capability from get_device_properties() -------------------------------------------------------------


def _properties(report: FileFacts, st: Requires, toks: list[Tok], words: list[str]) -> None:
    target = _assigned(words)
    compares = any(w in _NUMERIC for w in words)
    for i in range(len(words) - 1):
        if words[i] == "get_device_properties" and words[i + 1] == "(":
            close = _close(words, i + 1)
            if words[close + 1:close + 2] == ["."] and words[close + 2:close + 3] in (["major"], ["minor"]):
                _major(report, st, toks[i], words, target, compares, "get_device_properties().major")
            elif target and close == len(words) - 1:
                st.props.add(target)
            return
    for a, b in _refs(words, {f"{p}.{part}" for p in st.props for part in ("major", "minor")}):
        _major(report, st, toks[a], words, target, compares, "".join(words[a:b + 1]))
        return
    refs = _refs(words, st.majors)
    if refs and compares:
        a, b = refs[0]
        report.add(rules.P101, toks[a].start[0], toks[a].start[1] + 1, f"compares {''.join(words[a:b + 1])} (a "
                   "compute capability from get_device_properties()) with an NVIDIA-specific value")
    elif refs and target:
        st.majors.add(target)


def _major(report: FileFacts, st: Requires, tok: Tok, words: list[str], target: str, compares: bool,
           what: str) -> None:
    if compares:
        report.add(rules.P101, tok.start[0], tok.start[1] + 1, f"{what} compared with an NVIDIA compute capability "
                   "(AMD reports its gfx version: 9 on MI200/MI300)")
    elif target:
        st.majors.add(target)


def _close(words: list[str], open_: int) -> int:
    depth = 0
    for k in range(open_, len(words)):
        depth += {"(": 1, ")": -1}.get(words[k], 0)
        if depth == 0:
            return k
    return len(words) - 1


# --- Triton inline asm, FP8 dtypes -------------------------------------------------------------------------------


def _string(tok: Tok) -> str:
    if tok.type != tokenize.STRING or tok.string[:1] in "fFbB":
        return ""
    try:
        value = ast.literal_eval(tok.string)
    except (ValueError, SyntaxError):
        return ""
    return value if isinstance(value, str) else ""


def _inline_asm(report: FileFacts, st: Requires, toks: list[Tok], words: list[str]) -> None:
    for i in range(len(words) - 1):
        if words[i] == "inline_asm_elementwise" and words[i + 1] == "(":
            close = _close(words, i + 1)
            ptx = any(_PTX.search(_string(t)) for t in toks[i + 2:close]) or \
                any(t.type == tokenize.NAME and t.string in st.ptx for t in toks[i + 2:close])
            if ptx:
                _at(report, rules.P114, toks[i], "PTX in tl.inline_asm_elementwise: Triton on AMD compiles to "
                    "AMDGCN, so the kernel does not build; use a tl/libdevice op or AMDGCN asm under is_hip()")
            return
    target = _assigned(words)
    if target and any(_PTX.search(_string(t)) for t in toks):
        st.ptx.add(target)


def _fp8(report: FileFacts, st: Requires, toks: list[Tok], words: list[str]) -> None:
    for i, w in enumerate(words):
        if w in _OCP_FP8 and i >= 2 and words[i - 1] == "." and words[i - 2] == "torch":
            from cuda2rocm.hazards.hardware import fp8_message
            from cuda2rocm.hazards.targets import resolve

            target = resolve(st.target_gpu)
            if target.fp8 != "ocp":
                fnuz = f"{w.removesuffix('fn')}fnuz"
                instead = f": use torch.{fnuz} there" if target.fp8 == "fnuz" else ""
                _at(report, get("C2R-K505"), toks[i - 2], fp8_message(f"torch.{w}", target) + instead)
            return
