"""K8xx: device properties and compute-capability checks that mean something else on AMD."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from functools import lru_cache
from importlib import resources

from cuda2rocm.hazards.common import FAMILY, HIP_PORTING, LAYER
from cuda2rocm.hazards.context import Hit, Source
from cuda2rocm.lazyre import lazy
from cuda2rocm.model import Confidence, Severity
from cuda2rocm.rules import rule
from cuda2rocm.source.consteval import parse_int

HIPIFY_RT = "https://rocm.docs.amd.com/projects/HIPIFY/en/latest/reference/tables/CUDA_Runtime_API_functions_supported_by_HIP.html"


@lru_cache(maxsize=1)
def unsupported() -> dict[str, tuple[str, str]]:
    """name -> (kind, note) of device attributes and cudaDeviceProp fields with no HIP counterpart."""
    text = resources.files("cuda2rocm.hazards").joinpath("data/device_props.csv").read_text(encoding="utf-8")
    return {r["name"]: (r["kind"], r["note"]) for r in csv.DictReader(text.splitlines())}


@rule(
    "C2R-K801", "cudaDeviceProp field or device attribute with no HIP counterpart",
    family=FAMILY, severity=Severity.MEDIUM, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds reads of `cudaDeviceProp` fields (`prop.persistingL2CacheMaxSize`) and `cudaDevAttr*` values that "
         "HIP does not provide.",
    why="The translated code does not compile (missing member/enumerator), or the feature the field describes "
        "(L2 persistence, clusters, MPS) does not exist on AMD, so the branch it guards needs a decision.",
    example="int f(const cudaDeviceProp& prop) { return prop.persistingL2CacheMaxSize; }\n",
    instead="Drop the query (and the feature it gates) on AMD, or guard it with `__HIP_PLATFORM_NVIDIA__`.\n"
            "int f(const cudaDeviceProp& prop) { return prop.l2CacheSize; }\n",
    references=(HIPIFY_RT,),
    # every name of data/device_props.csv holds one (tests/hazards/test_requires_cases_b.py checks)
    requires=("cudaDevAttr", "accessPolicy", "persistingL2", "reservedSharedMem", "clusterLaunch", "ipcEvent",
              "gpuDirectRDMA", "timelineSemaphore", "CudaArraySupported", "hostRegisterReadOnly", "memoryPool",
              "hostNuma", "mpsEnabled", "sharedMemPerBlockOptin"),
)
def check_props(src: Source) -> Iterator[Hit]:
    table = unsupported()
    for i in src.idents(frozenset(table)):
        kind, note = table[src.src(i)]
        if kind == "field" and src.src(src.prev(i)) not in (".", "->"):
            continue
        yield Hit("C2R-K801", i, f"'{src.src(i)}': {note}")


_ARCH_CMP = lazy(r"__CUDA_ARCH__\s*(>=|>|<=|<|==|!=)\s*\d+|\d+\s*(>=|>|<=|<|==|!=)\s*__CUDA_ARCH__")


def _directives(src: Source) -> Iterator[tuple[int, str]]:
    """(index of ``#``, text of the directive's code tokens) for each preprocessor directive."""
    toks = src.tokens
    done = 0  # tokens before this were part of an earlier directive
    for i in src.positions("#"):
        if i < done or not toks[i].pp:
            continue
        j = i
        while j < len(toks) and toks[j].pp and toks[j].kind != "NL":
            j += 1
        yield i, " ".join(t.src for t in toks[i:j] if t.kind not in ("WS", "ESCNL", "COMMENT"))
        done = j + 1


@rule(
    "C2R-K802", "__CUDA_ARCH__ version check",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds preprocessor conditions comparing `__CUDA_ARCH__` with a number (`#if __CUDA_ARCH__ >= 800`).",
    why="hip-clang does not define `__CUDA_ARCH__` when compiling for AMD GPUs, so every such comparison is "
        "false: the code silently takes the oldest fallback path (slow, or missing features it needs).",
    example="__device__ float f(float x) {\n#if __CUDA_ARCH__ >= 800\n  return x * 2.0f;\n#else\n  return x;\n"
            "#endif\n}\n",
    instead="Test for the AMD target explicitly: `#if defined(__HIP_PLATFORM_AMD__) || __CUDA_ARCH__ >= 800`, "
            "or use feature macros (`__gfx942__`, `__GFX9__`).\n__device__ float f(float x) {\n"
            "#if defined(__HIP_PLATFORM_AMD__) || (defined(__CUDA_ARCH_LIST__) && 1)\n  return x * 2.0f;\n"
            "#else\n  return x;\n#endif\n}\n",
    references=(HIP_PORTING,),
    # the check itself returns unless the text holds it
    requires=("__CUDA_ARCH__",),
)
def check_arch_checks(src: Source) -> Iterator[Hit]:
    if "__CUDA_ARCH__" not in src.text:  # every hit's directive text contains it (tokens are the text's)
        return
    for i, text in _directives(src):
        if re.match(r"#\s*(el)?if\b", text) and _ARCH_CMP().search(text):
            yield Hit("C2R-K802", i, "__CUDA_ARCH__ is not defined on AMD: this comparison is always false")


@rule(
    "C2R-K803", "__CUDA_ARCH__ used to detect the device compilation pass",
    family=FAMILY, severity=Severity.MEDIUM, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds `#ifdef __CUDA_ARCH__`, `#ifndef __CUDA_ARCH__` and `defined(__CUDA_ARCH__)` tests.",
    why="On AMD the device pass defines `__HIP_DEVICE_COMPILE__`, not `__CUDA_ARCH__`: device-only code is "
        "compiled as host code (or left out), which breaks builds or selects the host implementation on the GPU.",
    example="__host__ __device__ int f() {\n#ifdef __CUDA_ARCH__\n  return 1;\n#else\n  return 0;\n#endif\n}\n",
    instead="Use `__HIP_DEVICE_COMPILE__` (or test both).\n__host__ __device__ int f() {\n"
            "#if defined(__HIP_DEVICE_COMPILE__)\n  return 1;\n#else\n  return 0;\n#endif\n}\n",
    references=(HIP_PORTING,),
    # the check itself returns unless the text holds it
    requires=("__CUDA_ARCH__",),
)
def check_device_pass(src: Source) -> Iterator[Hit]:
    if "__CUDA_ARCH__" not in src.text:  # every hit's directive text contains it (tokens are the text's)
        return
    for i, text in _directives(src):  # also beside a comparison: `defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900`
        if re.match(r"#\s*if(n)?def\s+__CUDA_ARCH__\b", text) or re.search(r"defined\s*\(?\s*__CUDA_ARCH__\b", text):
            yield Hit("C2R-K803", i, "__CUDA_ARCH__ is not defined in the AMD device pass: use "
                      "__HIP_DEVICE_COMPILE__")


_CC_ATTR = frozenset({"cudaDevAttrComputeCapabilityMajor", "hipDeviceAttributeComputeCapabilityMajor"})
_CMP = frozenset({">=", ">", "<=", "<", "==", "!="})


@rule(
    "C2R-K804", "Run-time compute-capability check",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.MEDIUM, layer=LAYER,
    what="Finds `prop.major >= 8`, comparisons of a variable read from `cudaDevAttrComputeCapabilityMajor` with a "
         "number, compute capabilities computed from major and minor (`major * 10 + minor`, `(major << 4) + minor`; "
         "comparisons of the result too) and tables keyed by SM version (`{{0x70, 64}, {0x75, 64}, {0x80, 64}}`) "
         "in a function that encodes one. A library version struct's `v.major * 10 + v.minor` is not reported.",
    why="HIP reports the gfx version as major/minor (9.4 for MI300X, 9.0 for MI200): `major >= 8` is true and "
        "`major == 8` false, so NVIDIA-generation checks pick paths (tensor-core kernels, bf16, TMA) that do "
        "not exist or skip ones that do.",
    example="bool ampere(const cudaDeviceProp& prop) { return prop.major >= 8; }\n",
    instead="Test for the feature (e.g. `hipDeviceProp_t::gcnArchName`, a capability table) instead of the "
            "NVIDIA generation.\nbool ampere(const cudaDeviceProp& prop, bool has_bf16) { return has_bf16; }\n",
    references=(HIP_PORTING,),
    # majors come from the ComputeCapabilityMajor attributes or major tokens; with neither the check returns
    requires=("major", "ComputeCapabilityMajor"),
)
def check_cc_compare(src: Source) -> Iterator[Hit]:
    majors = _major_vars(src)
    if not majors and not src.positions("major"):
        return  # _compares_major needs a name in ``majors`` or a ``major`` token
    encoded = list(_cc_arithmetic(src, majors))
    for i, target, _ in encoded:
        yield Hit("C2R-K804", i, "compute capability computed from major/minor: AMD reports the gfx version (9.x) "
                  "here, so the value matches no NVIDIA generation")
        if target:
            majors.add(target)  # `cc >= 80` afterwards compares the computed capability
    for i in src.tokens_named(_CMP):  # comparison operators are code tokens
        if not src.tokens[i].pp and _compares_major(src, i, majors):
            yield Hit("C2R-K804", i, "compute-capability comparison: AMD reports the gfx version (9.x) here")
    for i in _sm_tables(src, [op for op, _, hex_form in encoded if hex_form]):
        yield Hit("C2R-K804", i, "table keyed by NVIDIA SM version (0xMm): no AMD GPU has an entry, so the lookup "
                  "falls to its default")


def _is_major(src: Source, i: int, majors: set[str]) -> bool:
    """``major`` (a variable or a device-properties member), or a variable read from the major attribute."""
    name = src.src(i)
    if name in majors:
        return True
    if name != "major" or src.kind(i) != "IDENT":
        return False
    if src.src(src.prev(i)) in (".", "->"):
        return _may_be_props(src, src.prev(i, 2))
    return "cuda" in src.text  # a bare `major` counts in a CUDA file only (a library's semver elsewhere)


def _cc_arithmetic(src: Source, majors: set[str]) -> Iterator[tuple[int, str, bool]]:
    """(operator, assigned name or "", hex form) of each ``major * 10 + minor`` / ``(major << 4) + minor``."""
    for op in src.tokens_named(("*", "<<")):
        if src.tokens[op].pp or not _is_major(src, src.prev(op), majors):
            continue
        factor = parse_int(src.src(src.next(op)))
        hex_form = src.src(op) == "<<"
        if factor != (4 if hex_form else 10):
            continue
        k, seen_plus = src.next(op, 2), False
        for _ in range(6):  # `) + minor`, `+ p.minor`
            t = src.src(k)
            seen_plus = seen_plus or t in ("+", "|")
            if seen_plus and "minor" in t:
                break
            k = src.next(k)
        else:
            continue
        start = src.prev(op)
        while src.src(src.prev(start)) in ("(", ".", "->") or src.src(src.prev(start)) in majors:
            start = src.prev(start)
            if src.src(start) in (".", "->"):
                start = src.prev(start)
        eq = src.prev(start)
        target = src.src(src.prev(eq)) if src.src(eq) == "=" and src.kind(src.prev(eq)) == "IDENT" else ""
        yield op, target, hex_form


def _sm_tables(src: Source, ops: list[int]) -> Iterator[int]:
    """The first entry of each brace initialiser, in a function that encodes ``(major << 4) + minor``, holding
    three or more entries keyed by SM-version literals (``{{0x70, 64}, {0x75, 64}, {0x80, 64}}``)."""
    for fn in {f.body_open: f for f in (src.function_at(op) for op in ops) if f is not None}.values():
        for open_ in src.tokens_named(("{",), fn.body_open + 1, fn.body_close):
            close = src.pairs.get(open_, -1)
            keys = [k for k in src.tokens_named(("{",), open_ + 1, close) if _sm_literal(src.src(src.next(k)))]
            if len(keys) >= 3 and src.src(src.prev(open_)) == "=":
                yield src.next(keys[0])


def _sm_literal(text: str) -> bool:
    value = parse_int(text) if text.lower().startswith("0x") else None
    return value is not None and 0x30 <= value <= 0xA9 and value % 16 <= 9


def _major_vars(src: Source) -> set[str]:
    names: set[str] = set()
    for i in src.idents(_CC_ATTR):
        call = src.enclosing_call(i)
        args = src.args(call) if call >= 0 else []
        if args:
            names.update(src.src(k) for k in src.range_code(*args[0]) if src.kind(k) == "IDENT")
    for i in src.idents(frozenset({"major"})):
        if src.src(src.prev(i)) in (".", "->") and src.src(src.prev(i, 3)) == "=":
            names.add(src.src(src.prev(i, 4)))
    return names


def _compares_major(src: Source, op: int, majors: set[str]) -> bool:
    left_end, right = src.prev(op), src.next(op)
    if parse_int(src.src(right)) is None and parse_int(src.src(left_end)) is None:
        return False
    j = left_end
    while j >= 0 and src.src(j) not in (";", "{", "}", "(", ",", "return", "&&", "||", "?", "="):
        if src.src(j) in majors or (src.src(j) == "major" and src.src(src.prev(j)) in (".", "->")
                                    and _may_be_props(src, src.prev(j, 2))):
            return True
        j = src.prev(j)
    return src.src(right) in majors or (src.src(src.next(right, 2)) == "major" and src.src(src.next(right)) in
                                        (".", "->") and _may_be_props(src, right))


_PROP_TYPES = frozenset({"cudaDeviceProp", "hipDeviceProp_t", "cudaDeviceProp_t", "auto", "decltype"})


def _may_be_props(src: Source, obj: int) -> bool:
    """False when ``obj`` (the name before ``.major``) is declared in its function with a type that is not a
    device-properties struct (``const Version& v``): a library version, not a compute capability."""
    fn = next((f for f in src.functions if f.params_open < obj < f.body_close), None)
    if fn is None or src.kind(obj) != "IDENT":
        return True
    for k in src.idents(frozenset({src.src(obj)}), fn.params_open, obj):
        t = src.prev(k)
        while src.src(t) in ("&", "*", "const", "&&"):
            t = src.prev(t)
        if src.kind(t) == "IDENT" and src.src(t) not in ("return", "const"):
            return src.src(t) in _PROP_TYPES
    return True


#: CUDA toolkit version macros and feature macros that hipcc does not define (so they read as 0 / undefined)
_VERSION_MACROS = ("CUDART_VERSION", "CUDA_VERSION", "__CUDACC_VER_MAJOR__", "__CUDACC_VER_MINOR__",
                   "__CUDACC_VER_BUILD__", "__CUDA_API_VER_MAJOR__", "__CUDA_API_VER_MINOR__")
_FEATURE_MACROS = ("__CUDA_BF16_TYPES_EXIST__", "__CUDA_FP8_TYPES_EXIST__")
_HIP_AWARE = lazy(r"\b(__HIP_PLATFORM_AMD__|__HIP_PLATFORM_NVIDIA__|__HIPCC__|__HIP__|HIP_VERSION\w*|USE_ROCM)\b")
_GUARD = lazy(r"#\s*(?:(?:el)?if|ifn?def)\b.*?\b(" + "|".join(_VERSION_MACROS + _FEATURE_MACROS) + r")\b")


@rule(
    "C2R-K805", "CUDA version or feature macro guards a code path",
    family=FAMILY, severity=Severity.MEDIUM, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds preprocessor conditions on the CUDA toolkit version (`#if CUDART_VERSION >= 11000`, "
         "`CUDA_VERSION`, `__CUDACC_VER_MAJOR__`) and on CUDA feature macros (`__CUDA_BF16_TYPES_EXIST__`, "
         "`__CUDA_FP8_TYPES_EXIST__`), unless the condition also tests a HIP macro (`__HIP_PLATFORM_AMD__`, "
         "`HIP_VERSION`). `convert` reports the comparisons as C2R-A110, which keeps them.",
    why="hipcc defines none of these macros, so under HIP a version test reads 0 and a feature test is false: "
        "the code silently takes the path for old CUDA releases and switches off what the guard protects "
        "(CUDA Graphs, bf16, FP8, newer APIs), although HIP may provide it.",
    example="#if CUDART_VERSION >= 11000\n#include <cuda_bf16.h>\n#endif\n",
    instead="Test the platform too (`#if defined(__HIP_PLATFORM_AMD__) || CUDART_VERSION >= 11000`), or a HIP "
            "version (`HIP_VERSION`) for features HIP added later.\n"
            "#if defined(__HIP_PLATFORM_AMD__) || CUDART_VERSION >= 11000\n#include <cuda_bf16.h>\n#endif\n",
    references=(HIP_PORTING,),
    # the check itself returns unless the text holds one of these macros
    requires=_VERSION_MACROS + _FEATURE_MACROS,
)
def check_version_guards(src: Source) -> Iterator[Hit]:
    if not any(m in src.text for m in _VERSION_MACROS + _FEATURE_MACROS):
        return
    for i, text in _directives(src):
        m = _GUARD().match(text)
        if m and not _HIP_AWARE().search(text):
            yield Hit("C2R-K805", i, f"{m.group(1)} is not defined by hipcc: under HIP this condition takes the "
                      "path for old CUDA releases")
