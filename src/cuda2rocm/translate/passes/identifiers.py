"""Rename CUDA identifiers (code and macro bodies; never comments or strings) through the mapping tables."""

from __future__ import annotations

import bisect
import itertools
import operator
from collections.abc import Iterator

from cuda2rocm.model import Edit
from cuda2rocm.source.declared import is_defined
from cuda2rocm.source.directives import include_operands
from cuda2rocm.source.structure import match_span, split_args
from cuda2rocm.source.tokens import IDENT, PUNCT, STRING, TRIVIA, Token, all_indexes
from cuda2rocm.translate import data, rules, tables
from cuda2rocm.translate.context import Context
from cuda2rocm.translate.decide import Decision
from cuda2rocm.translate.passes import unknown, versions
from cuda2rocm.translate.passes.arguments import join_template_arguments

_KIND = operator.itemgetter(0)  # a token's kind, read at C speed
_SRC = operator.itemgetter(1)  # its text
_MEMBER = frozenset({".", "->", ".*", "->*"})
_RUNTIME_LIBRARIES = frozenset({"runtime", "driver", "device"})


def edits(ctx: Context) -> Iterator[Edit]:
    toks = ctx.tokens
    skip_until = -1
    fixups = data.call_fixups()
    for i in _candidates(ctx):
        tok = toks[i]
        if tok.offset < skip_until:
            continue
        decision = _decision(ctx, i)
        if decision is None:
            continue
        if not decision.converted:
            _count(ctx, i, decision)
            continue
        cuda = decision.cuda
        appended: list[Edit] = []
        if cuda in fixups and cuda in data.hip_signatures():
            decision, appended = _signature(ctx, i, decision)
        if not decision.converted:
            _count(ctx, i, decision)
            yield from appended
            continue
        drops = _drop_args(ctx, i, decision.drop_args) if decision.drop_args else []
        if drops is None:  # renamed with the mask kept, the fallback would read the mask as its first operand
            ctx.report(rules.UNSUPPORTED, tok.offset, f"{cuda} has no HIP equivalent in the target ROCm and its "
                       f"fallback {decision.replacement} cannot drop the lane mask here (a directive or a kernel "
                       "launch among the arguments): rewrite the call by hand")
            ctx.unsupported += 1
            continue
        yield _rename(ctx, i, decision)
        yield from appended
        if cuda in fixups:
            yield from _fixups(ctx, i, cuda)
        for drop in drops:
            skip_until = max(skip_until, drop.end)
            yield drop


def _fixups(ctx: Context, i: int, cuda: str) -> Iterator[Edit]:
    """The argument fixes of the converted call ``cuda`` at identifier ``i`` (defaults, pointer casts)."""
    if cuda in data.default_args():
        yield from _default_args(ctx, i, *data.default_args()[cuda])
    if cuda in data.kernel_args():
        yield from _kernel_pointer(ctx, i, data.kernel_args()[cuda])
    if cuda in data.void_pointer_args():
        yield from _void_pointer(ctx, i, data.void_pointer_args()[cuda])
    if cuda in data.symbol_args():
        yield from _symbol(ctx, i, *data.symbol_args()[cuda])


def _candidates(ctx: Context) -> list[int]:
    """The identifiers :func:`_decision` may map, in order: every one whose name the tables know or that looks
    like CUDA's, and every one after ``::`` (only a ``q::name`` qualification can map a name the tables do not
    know on its own). The others are exactly those :func:`_decision` would leave alone, so they are dropped
    here, with the per-token work at C speed (names are judged once each)."""
    toks = ctx.tokens
    idents = all_indexes(list(map(_KIND, toks)), IDENT)  # list.index scans at C speed
    names = list(map(_SRC, map(toks.__getitem__, idents)))
    loud = {name for name in set(names) if ctx.decide(name) is not None or unknown.looks_cuda(name)}
    kept = list(itertools.compress(idents, map(loud.__contains__, names)))
    if "::" not in ctx.text:  # without one no identifier is qualified (the common C-style CUDA file)
        return kept
    after = {ctx.next_code(c) for c in ctx.positions("::")}
    scoped = [j for j in after if j < len(toks) and toks[j].kind == IDENT and toks[j].src not in loud]
    return sorted(kept + scoped) if scoped else kept


def _after_scope(ctx: Context, i: int) -> bool:
    prev = ctx.prev_code(i)
    return prev >= 0 and ctx.tokens[prev].src == "::" and ctx.tokens[prev].kind == PUNCT


def _decision(ctx: Context, i: int) -> Decision | None:
    """The decision for identifier ``i``, or None to leave it alone."""
    toks = ctx.tokens
    name = toks[i].src
    prev = ctx.prev_code(i)
    p = toks[prev] if prev >= 0 else None
    if p is not None and p.kind == PUNCT:
        if p.src in _MEMBER or (p.src == "#" and p.pp):
            return None  # a member (a.cudaX) or a directive name
        if p.src == "::":
            q = ctx.prev_code(prev)
            # qualified (mine::cudaX): only names the tables know under that namespace map (thrust::cuda,
            # cooperative_groups::binary_partition), also through a namespace alias (namespace cg = ...)
            if q >= 0 and toks[q].kind == IDENT and toks[q].src not in _NOT_TYPES:
                space = _aliases(ctx).get(toks[q].src, toks[q].src)
                outer = _outer_qualifier(ctx, q)  # thrust::system::cuda: the longest name the tables know wins
                longer = ctx.decide(f"{outer}::{space}::{name}") if outer else None
                return _qualified(ctx, i, longer or ctx.decide(f"{space}::{name}"))
    decision = ctx.decide(name)
    if decision is None:
        unknown.check(ctx, i)
        return None
    if name in data.defined_only() and not _definedness_test(ctx, i):
        value = versions.value_for_hip(ctx, i)
        if value:
            ctx.compared_versions.append(i)
            ours = versions.macro(name)
            return Decision(name, ours, decision.library, decision.kind, rules.VERSION_COMPARED,
                            f"{name} is compared: written {ours}, which a block near the top of the file defines as "
                            f"{name} where that is defined and as {value} (the CUDA release the translation assumes) "
                            f"under hip-clang, so the branch for a modern CUDA is taken ({data.defined_only()[name]})")
        ctx.report(rules.VERSION_COMPARED, toks[i].offset, f"{name} is compared or computed with: kept "
                   f"({data.defined_only()[name]})")
        return None
    if name in data.defined_only() and toks[i].pp and i in _kept_guards(ctx):
        ctx.report(rules.VERSION_COMPARED, toks[i].offset, f"{name} guards code that uses its value: the test is "
                   f"kept, so that code is left out of the HIP build instead of failing to compile there "
                   f"({data.defined_only()[name]})")
        return None
    if decision.kind == "namespace":
        return _namespace(ctx, i, decision)
    if name in ctx.shadowed:
        return None  # a variable the file named like a CUDA type alias (below): its later uses stay too
    if p is not None and _declares(p, decision, toks[i].pp):
        return None  # `int cudaMalloc;` declares the project's own entity (a member, a local)
    if _local_entity(ctx, i, decision):
        return None  # a use of the parameter or local the function declared with this name (`bool saturate`)
    if p is not None and "type" in decision.kind and _names_a_variable(ctx, i, p, toks[i].pp):
        ctx.shadowed.add(name)  # `cublasStatus_t cublasStatus;`: a variable named like cuBLAS's legacy alias
        return None
    if ctx.settings.roc and decision.library == "complex" and _uses_rocblas(ctx):
        return _rocblas_complex(decision)
    return _in_call(ctx, i, decision)


_CUBLAS_HEADERS = frozenset({"cublas_v2.h", "cublas.h", "cublas_api.h"})


def _uses_rocblas(ctx: Context) -> bool:
    """--roc and the file includes a cuBLAS header: its complex values go to rocBLAS functions."""
    if ctx.uses_cublas is None:
        ctx.uses_cublas = any(ctx.tokens[j].src[1:-1].rsplit("/", 1)[-1] in _CUBLAS_HEADERS
                              for j in include_operands(ctx.tokens))
    return ctx.uses_cublas


def _rocblas_complex(decision: Decision) -> Decision:
    """cuComplex -> rocblas_float_complex, make_cuComplex -> its constructor, cuCrealf -> std::real; the other
    cuComplex functions have no rocBLAS spelling (the class's operators replace them) and are reported."""
    roc = data.roc_complex().get(decision.cuda)
    if roc is not None:
        return Decision(decision.cuda, roc, decision.library, decision.kind)
    if decision.kind != "function":
        return decision
    msg = (f"{decision.cuda}: with --roc this file's complex values are rocBLAS's rocblas_float_complex / "
           f"rocblas_double_complex, which {decision.replacement or decision.cuda} does not take; use the class's "
           "operators (a + b, a * b, a / b) instead")
    return Decision(decision.cuda, decision.replacement, decision.library, decision.kind, rules.UNSUPPORTED, msg)


def _in_call(ctx: Context, i: int, decision: Decision) -> Decision:
    """The HIP name an argument needs in its call: CUBLAS_FILL_MODE_LOWER in a cuSOLVER call is
    HIPSOLVER_FILL_MODE_LOWER, CUDA_R_32F in a cuSPARSE call is HIP_R_32F (hipBLAS's HIPBLAS_R_32F elsewhere)."""
    name = decision.cuda
    if name not in data.in_call_names():
        return decision
    datatype = name in data.library_datatypes() and ctx.settings.library_datatypes
    contexts = data.call_context().get(name)
    if not datatype and contexts is None and name not in data.compute_datatypes():
        return decision
    callee = _enclosing_call(ctx, i)
    compute = _compute_type(ctx, i, name, callee)
    if compute is not None:
        return compute
    if not datatype and contexts is None:
        return decision
    if datatype and callee.startswith(data.HIP_DATATYPE_CALLS):
        hip = ctx.decide_with_hip_data_types(name)
        return hip if hip is not None else decision
    hip_name = next((h for within, h in (contexts or {}).items() if callee.startswith(within)), "")
    if not hip_name:
        return decision
    return Decision(decision.cuda, hip_name, decision.library, decision.kind, decision.rule, decision.message,
                    decision.drop_args)


def _compute_type(ctx: Context, i: int, name: str, callee: str) -> Decision | None:
    """``cublasGemmEx(..., CUDA_R_32F, algo)``: from ROCm 6.0 a data type in the compute-type position is translated
    as the compute type it stands for (CUBLAS_COMPUTE_32F -> HIPBLAS_COMPUTE_32F)."""
    found = data.compute_type_args().get(callee)
    if found is None or name not in found[1] or not ctx.settings.compute_types:
        return None  # before ROCm 6.0 the data type is what hipblasGemmEx takes there (HIPBLAS_C_32F for complex)
    position, computes = found
    callee_index = _enclosing_callee(ctx, i)
    call = _call_args(ctx, callee_index) if callee_index >= 0 else None
    if call is None or position >= len(call[1]) or not call[1][position][0] <= i < call[1][position][1]:
        return None
    compute = ctx.decide(computes[name])
    if compute is None:
        return None
    return Decision(name, compute.replacement, compute.library, compute.kind, compute.rule, compute.message)


def _enclosing_call(ctx: Context, i: int) -> str:
    """Name of the innermost call whose parentheses contain token ``i`` ("" outside any call)."""
    callee = _enclosing_callee(ctx, i)
    return ctx.tokens[callee].src if callee >= 0 else ""


def _enclosing_callee(ctx: Context, i: int) -> int:
    """Index of the name of the innermost call whose parentheses contain token ``i`` (-1 outside any call)."""
    toks, depth = ctx.tokens, 0
    j = ctx.prev_code(i)
    while j >= 0 and toks[j].src not in (";", "{", "}"):
        if toks[j].src in (")", "]"):
            depth += 1
        elif toks[j].src in ("(", "["):
            if depth == 0:
                callee = ctx.prev_code(j)
                return callee if toks[j].src == "(" and callee >= 0 and toks[callee].kind == IDENT else -1
            depth -= 1
        j = ctx.prev_code(j)
    return -1


_VALUE_OPS = frozenset({"<", ">", "<=", ">=", "==", "!=", "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "?",
                        ":", "="})


def _definedness_test(ctx: Context, i: int) -> bool:
    """``defined(X)``, ``defined X``, ``#ifdef X``/``#ifndef X``, or X as a truth value in ``#if``/``#elif``."""
    toks = ctx.tokens
    prev = ctx.prev_code(i)
    before = ctx.prev_code(prev) if prev >= 0 else -1
    if prev >= 0 and (toks[prev].src == "defined" or (toks[prev].src == "(" and before >= 0
                                                       and toks[before].src == "defined")):
        return True
    if not toks[i].pp:
        return False
    start = i
    while start > 0 and toks[start - 1].pp:  # back to the directive's '#'
        start -= 1
    word = toks[ctx.next_code(start)].src
    if word in ("ifdef", "ifndef", "elifdef", "elifndef"):
        return True
    nxt = ctx.next_code(i)
    after = toks[nxt].src if nxt < len(toks) and toks[nxt].pp else ""
    return word in ("if", "elif") and toks[prev].src not in _VALUE_OPS and after not in _VALUE_OPS


def _kept_guards(ctx: Context) -> frozenset[int]:
    """Definedness tests of a version macro that must not be translated: the branch they open uses the macro's
    value in code (``#ifdef __CUDA_ARCH__`` / ``v = __CUDA_ARCH__;``). HIP defines no such number, so translating
    the test (to ``__HIP_DEVICE_COMPILE__``) would make the branch live and the use fail to compile. For each use
    in code, the innermost enclosing ``#if``/``#elif`` branch whose condition names the macro decides: when all
    its mentions are definedness tests, they are kept (a branch that also compares the value is dead under HIP
    already, since the compared name is kept and evaluates to 0)."""
    if ctx.kept_guards is not None:
        return ctx.kept_guards
    toks, names = ctx.tokens, data.defined_only()
    kept: set[int] = set()
    stack: list[list[int]] = []  # per open conditional: the identifiers of the current branch's condition
    i, n = 0, len(toks)
    while i < n:
        tok = toks[i]
        if tok.pp and tok.kind == PUNCT and tok.src == "#":
            words = []
            while i < n and toks[i].pp:
                if toks[i].kind == IDENT:
                    words.append(i)
                i += 1
            word = toks[words[0]].src if words else ""
            if word in ("if", "ifdef", "ifndef"):
                stack.append(words[1:])
            elif word in ("elif", "elifdef", "elifndef", "else") and stack:
                stack[-1] = words[1:] if word != "else" else []
            elif word == "endif" and stack:
                stack.pop()
            continue
        if tok.kind == IDENT and not tok.pp and tok.src in names:
            for cond in reversed(stack):
                mentions = [k for k in cond if toks[k].src == tok.src]
                if mentions:
                    if all(_definedness_test(ctx, k) for k in mentions):
                        kept.update(mentions)
                    break
        i += 1
    ctx.kept_guards = frozenset(kept)
    return ctx.kept_guards


def _call_args(ctx: Context, i: int) -> tuple[int, list[tuple[int, int]]] | None:
    """(index of the ``(``, argument ranges) of the call whose name is token ``i``; None when it is no call."""
    call = _call(ctx, i)
    return None if call is None else (call[0], call[2])


def _call(ctx: Context, i: int) -> tuple[int, int, list[tuple[int, int]]] | None:
    """(index of the ``(``, of its ``)``, argument ranges) of the call whose name is token ``i``; None when it is
    no call. The call's own brackets are matched (the file's, when a pass has matched them already)."""
    toks = ctx.tokens
    open_ = ctx.next_code(i)
    if open_ >= len(toks) or toks[open_].src != "(":
        return None
    if toks[open_].pp:
        ctx.brackets()
    pairs = ctx.pairs if ctx.pairs is not None else match_span(toks, open_)
    if open_ not in pairs:
        return None
    return open_, pairs[open_], join_template_arguments(toks, split_args(toks, open_, pairs))


def _kernel_pointer(ctx: Context, i: int, position: int) -> list[Edit]:
    """``hipFuncSetAttribute(f, ...)`` -> ``hipFuncSetAttribute(reinterpret_cast<const void*>(f), ...)``: HIP
    declares ``const void*`` and clang converts no function to it, whatever names the function: a kernel, a
    template specialisation ``k<float, 4>``, a function-pointer variable, ``&k``. Two insertions around the
    argument, so the passes can still rewrite inside it; an argument that is already cast, or a null pointer
    constant, is left alone (the cast is a no-op on a ``const void*`` or ``void*`` variable)."""
    call = _call_args(ctx, i)
    if call is None or position >= len(call[1]):
        return []
    code = [k for k in range(*call[1][position]) if ctx.tokens[k].kind not in TRIVIA]
    if _has_directive(ctx, code):
        return []
    text = "".join(ctx.tokens[k].src for k in code)
    if not code or text.startswith(_FUNCTION_CASTS) or text in _NULL_POINTERS or _void_pointer_variable(ctx, text):
        return []
    first, last = ctx.tokens[code[0]], ctx.tokens[code[-1]]
    return [Edit(first.offset, first.offset, "reinterpret_cast<const void*>(", "fallback:kernel-pointer"),
            Edit(last.end, last.end, ")", "fallback:kernel-pointer")]


def _has_directive(ctx: Context, code: list[int]) -> bool:
    """Whether an argument's tokens hold a directive (``#if`` branches): a cast around them would start before
    the ``#`` or end after the ``#endif`` on its line, breaking the directive; the argument is left as it is."""
    return any(ctx.tokens[k].pp for k in code)


def _void_pointer_variable(ctx: Context, name: str) -> bool:
    """``name`` is declared ``void* name`` / ``const void* name`` in the file: it converts to ``const void*``."""
    if not name.isidentifier():
        return False
    toks = ctx.tokens
    for k in ctx.positions(name):
        if toks[k].kind == IDENT:
            star = ctx.prev_code(k)
            typ = ctx.prev_code(star) if star >= 0 and toks[star].src == "*" else -1
            if typ >= 0 and toks[typ].src == "const":
                typ = ctx.prev_code(typ)
            if typ >= 0 and toks[typ].src == "void":
                return True
    return False


_FUNCTION_CASTS = ("(void*)", "(constvoid*)", "(voidconst*)", "reinterpret_cast<", "static_cast<", "const_cast<",
                   "(hipFunction_t)", "(CUfunction)")
_NULL_POINTERS = frozenset({"nullptr", "NULL", "0"})


_VOID_CASTS = ("(void**)", "(void**)(", "reinterpret_cast<void**>", "static_cast<void**>")


def _void_pointer(ctx: Context, i: int, position: int) -> list[Edit]:
    """``hipHostAlloc(&typed, n, f)`` -> ``hipHostAlloc(reinterpret_cast<void**>(&typed), n, f)``: HIP declares
    ``void**`` only (``void_pointer_args.csv``). Two insertions around the argument, so the passes can still
    rewrite inside it; an argument already cast to ``void**`` is left alone."""
    call = _call_args(ctx, i)
    if call is None or position >= len(call[1]):
        return []
    code = [k for k in range(*call[1][position]) if ctx.tokens[k].kind not in TRIVIA]
    if not code or _has_directive(ctx, code) or "".join(ctx.tokens[k].src for k in code).startswith(_VOID_CASTS):
        return []
    first, last = ctx.tokens[code[0]], ctx.tokens[code[-1]]
    return [Edit(first.offset, first.offset, "reinterpret_cast<void**>(", "fallback:void-pointer"),
            Edit(last.end, last.end, ")", "fallback:void-pointer")]


def _symbol(ctx: Context, i: int, position: int, overloaded: bool) -> list[Edit]:
    """The device-symbol argument of a symbol call. A string (``"c_table"``, the CUDA < 5.0 form) names the
    variable when the file declares it, else it is reported (C2R-A113). A ``__device__``/``__constant__``/
    ``__managed__`` variable of the file is ``HIP_SYMBOL(x)`` where HIP has a ``const T&`` template overload
    (``overloaded``: hipMemcpyToSymbol[Async], ...; the macro is ``X`` on AMD, ``&X`` on NVIDIA), and ``&x``
    where HIP declares only ``const void*`` (the graph memcpy-node calls: ``HIP_SYMBOL(scalar)`` does not compile
    there, and CUDA's template took the variable's address)."""
    tok = _single_token_argument(ctx, i, position)
    if tok is None:
        return []
    if tok.kind == IDENT and tok.src in _device_variables(ctx):
        text = f"HIP_SYMBOL({tok.src})" if overloaded else f"&{tok.src}"
        return [Edit(tok.offset, tok.end, text, "fallback:symbol")]
    if tok.kind != STRING or not tok.src.startswith('"'):
        return []
    name = tok.src[1:-1]
    if name.isidentifier() and is_defined(ctx.tokens, name, ctx.positions(name)):
        text = f"HIP_SYMBOL({name})" if overloaded else f"&{name}"
        ctx.report(rules.STRING_SYMBOL, tok.offset, f'symbol "{name}" given as a string: now {text}')
        return [Edit(tok.offset, tok.end, text, "fallback:string-symbol")]
    ctx.report(rules.STRING_SYMBOL, tok.offset, f"symbol given as the string {tok.src}: pass the variable itself "
               "(the copy fails at run time on HIP)")
    return []


_VARIABLE_QUALIFIERS = frozenset({"__device__", "__constant__", "__managed__"})


def _device_variables(ctx: Context) -> frozenset[str]:
    """Names of the variables the file declares ``__device__``/``__constant__``/``__managed__`` (every declarator
    of the declaration: ``__device__ int a, b[4] = {0};``); functions (a ``(`` before any ``=``) are not."""
    if ctx.device_variables is not None:
        return ctx.device_variables
    toks, found = ctx.tokens, set()
    for k, tok in enumerate(toks):
        if tok.kind != IDENT or tok.src not in _VARIABLE_QUALIFIERS or tok.pp:
            continue
        names: list[str] = []
        depth, init, j, last = 0, False, ctx.next_code(k), ""
        while j < len(toks):
            src = toks[j].src
            if depth == 0 and src == "(" and not init:
                names = []
                break  # a function
            if src in ("(", "[", "{"):
                if depth == 0 and not init and last:
                    names.append(last)
                depth += 1
            elif src in (")", "]", "}"):
                depth -= 1
                if depth < 0:
                    break
            elif depth == 0 and src in ("=", ",", ";"):
                if not init and last:
                    names.append(last)
                init = src == "="
                last = ""
                if src == ";":
                    break
            elif depth == 0 and not init:
                last = src if toks[j].kind == IDENT else ""
            j = ctx.next_code(j)
        found.update(names)
    ctx.device_variables = frozenset(found)
    return ctx.device_variables


def _single_token_argument(ctx: Context, i: int, position: int) -> Token | None:
    """The argument at ``position`` of the call named by token ``i`` when it is one token (``k``, ``"name"``)."""
    call = _call_args(ctx, i)
    if call is None or position >= len(call[1]):
        return None
    code = [k for k in range(*call[1][position]) if ctx.tokens[k].kind not in TRIVIA]
    return ctx.tokens[code[0]] if len(code) == 1 else None


def _signature(ctx: Context, i: int, d: Decision) -> tuple[Decision, list[Edit]]:
    """A call form whose HIP argument list differs in the target release (``hip_signatures.csv``): the HIP function
    for that form (plus appended arguments), or the CUDA call kept and reported (C2R-A121)."""
    call = _call(ctx, i)
    entry = tables.lookup(d.cuda)
    if call is None or entry is None or d.replacement != entry.hip:
        return d, []  # not a call, or written as something other than the hip* name (--roc)
    form = data.hip_signature(d.cuda, len(call[2]), ctx.settings.target)
    if form is None:
        return d, []
    if not form.hip:
        msg = f"{d.cuda} with {form.args} arguments: {form.note}; kept"
        return Decision(d.cuda, "", d.library, d.kind, rules.HIP_SIGNATURE, msg), []
    close = ctx.tokens[call[1]]
    extra = [Edit(close.offset, close.offset, f", {form.append}", "fallback:hip-signature")] if form.append else []
    return Decision(d.cuda, form.hip, d.library, d.kind, d.rule, d.message, d.drop_args), extra


def _default_args(ctx: Context, i: int, arity: int, defaults: tuple[str, ...]) -> list[Edit]:
    """Append HIP spellings of CUDA's default arguments that the HIP declaration lacks (``, 0``)."""
    call = _call(ctx, i)
    first = arity - len(defaults)
    if call is None or not first <= len(call[2]) < arity:
        return []
    close = ctx.tokens[call[1]]
    added = "".join(f", {d}" for d in defaults[len(call[2]) - first:])
    return [Edit(close.offset, close.offset, added, "fallback:default-argument")]


_NOT_TYPES = frozenset({"return", "case", "else", "do", "throw", "new", "delete", "co_return", "co_yield",
                        "sizeof", "alignof", "decltype", "typedef", "using", "goto", "defined"})


def _declares(prev: Token, d: Decision, pp: bool) -> bool:
    """A non-type CUDA name right after a type name is a declaration of something else with that name."""
    return _names_entity(prev, pp) and _may_declare(d)


def _names_entity(prev: Token, pp: bool) -> bool:
    """Whether a name after ``prev`` is declared there, ``prev`` being its type (``bool saturate``)."""
    return not pp and prev.kind == IDENT and prev.src not in _NOT_TYPES


def _may_declare(d: Decision) -> bool:
    """Whether code may declare an entity of its own under the name (a macro, void CUDART_CB f(), never is)."""
    return "type" not in d.kind and d.kind not in ("namespace", "define")


def _local_entity(ctx: Context, i: int, d: Decision) -> bool:
    """Whether the name at ``i``, used as no call, is a parameter or local variable that the innermost function
    containing it declared earlier (``bool saturate`` ... ``return saturate ? a : 0;``): C++ scoping makes that
    use the function's own entity, not the CUDA name the tables know."""
    toks = ctx.tokens
    if toks[i].pp or not _may_declare(d):
        return False
    after = ctx.next_code(i)
    if after < len(toks) and toks[after].src == "(":
        return False
    declared = _declarations(ctx, toks[i].src)
    last = bisect.bisect_left(declared, i) - 1
    if last < 0:
        return False  # the common case, answered without the file's functions
    inner = ctx.innermost_function(i)
    return inner is not None and declared[last] > inner.params_open


def _declarations(ctx: Context, name: str) -> list[int]:
    """The tokens where ``name`` is declared as an entity of the file's own (:func:`_names_entity`), ascending,
    kept per name."""
    found = ctx.declared_at.get(name)
    if found is None:
        toks = ctx.tokens
        found = ctx.declared_at[name] = [
            j for j in ctx.positions(name) if toks[j].kind == IDENT
            and (prev := ctx.prev_code(j)) >= 0 and _names_entity(toks[prev], toks[j].pp)]
    return found


def _outer_qualifier(ctx: Context, q: int) -> str:
    """``thrust`` for the ``system`` of ``thrust::system::cuda`` ("" when ``q`` is not itself qualified)."""
    sep = ctx.prev_code(q)
    if sep < 0 or ctx.tokens[sep].src != "::":
        return ""
    outer = ctx.prev_code(sep)
    return ctx.tokens[outer].src if outer >= 0 and ctx.tokens[outer].kind == IDENT else ""


def _qualified(ctx: Context, i: int, decision: Decision | None) -> Decision | None:
    """``ns::name`` known to the tables: a nested namespace maps where used as one; any other entity maps its own
    token (the namespace token is translated on its own) and reports what the tables say (unsupported...)."""
    if decision is None or decision.kind == "namespace":
        return _namespace(ctx, i, decision)
    short = decision.replacement.rsplit("::", 1)[-1]
    return Decision(decision.cuda, short, decision.library, decision.kind, decision.rule, decision.message,
                    decision.drop_args)


def _aliases(ctx: Context) -> dict[str, str]:
    """``namespace cg = cooperative_groups;`` -> {"cg": "cooperative_groups"} (computed once per file)."""
    if ctx.aliases is None:
        toks, found = ctx.tokens, {}
        for k in (k for k, t in enumerate(toks) if t.kind == IDENT and t.src == "namespace"):
            alias, eq = ctx.next_code(k), ctx.next_code(ctx.next_code(k))
            if alias < len(toks) and toks[alias].kind == IDENT and eq < len(toks) and toks[eq].src == "=":
                parts, j = [], ctx.next_code(eq)
                while j < len(toks) and (toks[j].kind == IDENT or toks[j].src == "::"):
                    parts.append(toks[j].src)
                    j = ctx.next_code(j)
                if parts and j < len(toks) and toks[j].src == ";":
                    found[toks[alias].src] = "".join(parts).lstrip(":")
        ctx.aliases = found
    return ctx.aliases


_DECLARATOR_END = frozenset({";", "=", ",", ")", "["})


def _names_a_variable(ctx: Context, i: int, prev: Token, pp: bool) -> bool:
    """A CUDA type name used as a variable's name: a type before it and ``;``/``=``/``,``/``)``/``[`` after it
    (``cublasStatus_t cublasStatus;`` declares a variable named like cuBLAS's legacy ``cublasStatus`` alias)."""
    if pp or prev.kind != IDENT or prev.src in _NOT_TYPES:
        return False
    nxt = ctx.next_code(i)
    return nxt < len(ctx.tokens) and ctx.tokens[nxt].src in _DECLARATOR_END


def _namespace(ctx: Context, i: int, decision: Decision | None) -> Decision | None:
    """Namespaces map only where used as one: ``cub::``, ``using namespace cub``."""
    if decision is None or decision.kind != "namespace":
        return None
    nxt = ctx.next_code(i)
    prev = ctx.prev_code(i)
    used = (nxt < len(ctx.tokens) and ctx.tokens[nxt].src == "::") or (
        prev >= 0 and ctx.tokens[prev].src == "namespace"
    )
    if not used:
        return None
    short = decision.replacement.rsplit("::", 1)[-1]
    return Decision(decision.cuda, short, decision.library, decision.kind, decision.rule, decision.message)


def _count(ctx: Context, i: int, d: Decision) -> None:
    """A name that is not renamed: its finding, and its count when HIP spells it the same."""
    tok = ctx.tokens[i]
    if d.rule is not None:
        ctx.report(d.rule, tok.offset, d.message)
    if d.rule in (rules.UNSUPPORTED, rules.NOT_AVAILABLE, rules.HIP_SIGNATURE):
        ctx.unsupported += 1
    if d.replacement == tok.src:
        ctx.converted[(d.library, d.kind)] += 1  # same name in HIP (e.g. __syncthreads): still a reference
        # a device function of the same name (clock, min, max) is a host function of the C/C++ library too:
        # on its own it does not make a host file HIP (device code is detected by its keywords)
        ctx.uses_hip_runtime |= d.library in _RUNTIME_LIBRARIES and d.kind != "device_function"


def _rename(ctx: Context, i: int, d: Decision) -> Edit:
    """The edit renaming identifier ``i`` by the converted decision ``d`` (with its finding and count)."""
    tok = ctx.tokens[i]
    if d.rule is not None:
        ctx.report(d.rule, tok.offset, d.message)
    ctx.converted[(d.library, d.kind)] += 1
    ctx.uses_hip_runtime |= d.library in _RUNTIME_LIBRARIES
    return Edit(tok.offset, tok.end, d.replacement, f"{d.library}:{d.kind}")


def _drop_args(ctx: Context, i: int, drop: tuple[int, ...]) -> list[Edit] | None:
    """Edits removing the 0-based arguments ``drop`` of the call whose name is token ``i``. None where they cannot
    be found or removed: the arguments hold a directive (``#if`` branches make the positions ambiguous, and the
    removal would take directive lines with it; a call inside a macro's body is fine) or a kernel launch
    (malformed code: a launch is no lane mask, and the launch pass may rewrite inside it)."""
    toks = ctx.tokens
    call = _call(ctx, i)
    if call is None:
        return []
    open_, close, args = call
    # a call wholly inside one directive (a macro's body: no line break between its tokens) is removed from as
    # in code; a directive among code arguments is not
    in_macro = all(toks[j].pp for j in range(i, close + 1))
    if any((toks[j].pp and not in_macro) or (toks[j].src == "<<<" and toks[j].kind == PUNCT)
           for j in range(open_, close)):
        return None
    out: list[Edit] = []
    for k in sorted(set(drop)):
        if k >= len(args):
            continue
        if k + 1 < len(args):
            start = toks[open_].end if k == 0 else toks[args[k][0]].offset
            end = toks[ctx.next_code(args[k + 1][0] - 1)].offset
        else:
            start = toks[args[k][0] - 1].offset if k > 0 else toks[open_].end
            end = toks[args[k][1]].offset
        out.append(Edit(start, end, "", "fallback:drop-argument"))
    return out
