"""K4xx: shared memory (LDS on AMD) larger than a workgroup may allocate on the target GPU."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from cuda2rocm.hazards.common import FAMILY, GPU_SPECS, LAYER
from cuda2rocm.hazards.context import Hit, Source
from cuda2rocm.hazards.symbols import Env, file_env, instantiations, local_env, spelled, where
from cuda2rocm.model import Confidence, Severity
from cuda2rocm.rules import rule
from cuda2rocm.source.consteval import evaluate, type_sizes
from cuda2rocm.source.structure import Function
from cuda2rocm.source.tokens import Token

_SKIP = frozenset({"static", "volatile", "const", "__align__", "alignas", "__shared__"})
_WHY = ("Shared memory is LDS on AMD GPUs: a workgroup can allocate at most 64 KiB on MI100/MI200/MI300 and "
        "160 KiB on MI350/MI355 (NVIDIA Hopper allows up to 227 KiB). A kernel that asks for more fails to "
        "compile (static) or to launch (dynamic).")


def _shared_decls(src: Source, start: int, end: int) -> Iterator[tuple[int, int]]:
    """(``__shared__`` token, statement end) of non-extern shared declarations in [start, end)."""
    for i in src.idents(frozenset({"__shared__"}), start, end):
        if src.src(src.prev(i)) == "extern" or src.src(src.next(i)) == "extern":
            continue
        yield i, src.statement_end(i)


def _decl_bytes(src: Source, i: int, end: int, env: Env) -> int | None:
    """Bytes of one ``__shared__`` declaration; ``T a[N], b[M];`` declares two arrays of element type T."""
    code = src.range_code(i, end)
    words: list[str] = []
    arrays: list[list[int]] = [[]]
    k = 0
    while k < len(code):
        t = code[k]
        s = src.src(t)
        if s in ("__align__", "alignas") and src.src(src.next(t)) == "(":
            k = code.index(src.pairs[src.next(t)]) + 1 if src.next(t) in src.pairs else len(code)
            continue
        if s == "[" and t in src.pairs:
            value = evaluate([src.tokens[x] for x in src.range_code(t + 1, src.pairs[t])], env)
            if value is None:
                return None
            arrays[-1].append(value)
            k = code.index(src.pairs[t]) + 1
            continue
        if s == ",":
            arrays.append([])
        elif src.kind(t) == "IDENT" and s not in _SKIP and len(arrays) == 1 and not arrays[0]:
            words.append(s)
        k += 1
    elem = _elem_size(words[:-1], env)
    if elem is None:
        return None
    total = 0
    for dims in arrays:
        size = elem
        for d in dims:
            size *= d
        total += size
    return total


def _elem_size(words: list[str], env: Env) -> int | None:
    name = " ".join(words)
    if name in env:
        name = " ".join(t.src for t in env[name])
    return type_sizes().get(name)


def static_bytes(src: Source, fn: Function, env: Env) -> tuple[int, int] | None:
    """(bytes, first declaration token) of the static shared memory of ``fn`` under ``env``."""
    total, first = 0, -1
    for i, end in _shared_decls(src, fn.body_open, fn.body_close):
        size = _decl_bytes(src, i, end, local_env(src, fn, env))
        if size is not None:
            total += size
            first = i if first < 0 else first
    return (total, first) if first >= 0 else None


@rule(
    "C2R-K401", "Static __shared__ memory larger than the target's LDS",
    family=FAMILY, severity=Severity.CRITICAL, confidence=Confidence.HIGH, layer=LAYER,
    what="Adds up the static `__shared__` arrays of each kernel (evaluating `#define`, `constexpr` and template "
         "arguments of its launches) and compares the total with the target GPU's LDS per workgroup.",
    why=_WHY,
    example="#define TILE 160\n__global__ void k(float* p) {\n  __shared__ float a[TILE][TILE];\n"
            "  a[threadIdx.y][threadIdx.x] = p[0];\n}\n",
    instead="Use smaller tiles (or fewer pipeline stages) so the kernel fits in 64 KiB; query "
            "`hipDeviceAttributeMaxSharedMemoryPerBlock` when sizes are chosen at run time.\n"
            "#define TILE 64\n__global__ void k(float* p) {\n  __shared__ float a[TILE][TILE];\n"
            "  a[threadIdx.y][threadIdx.x] = p[0];\n}\n",
    references=(GPU_SPECS,),
    # only declarations that start with a __shared__ identifier token are counted
    requires=("__shared__",),
)
def check_static_lds(src: Source) -> Iterator[Hit]:
    base = file_env(src)
    limit = src.target.lds_bytes
    for fn in src.device_functions():
        worst = max(((s, env) for env in instantiations(src, fn, base) if (s := static_bytes(src, fn, env))),
                    key=lambda found: found[0][0], default=None)
        if worst is not None and worst[0][0] > limit:
            (size, first), env = worst
            code = src.range_code(first, src.statement_end(first))
            yield Hit("C2R-K401", first, f"{size} bytes of static shared memory{_sources(src, code, env)} exceed "
                      f"the {src.target.lds_kib} KiB LDS of {src.target.name} ({src.target.gfx})")


_SET_ATTR = frozenset({"cudaFuncSetAttribute", "hipFuncSetAttribute", "cuFuncSetAttribute"})
_MAX_DYN = frozenset({"cudaFuncAttributeMaxDynamicSharedMemorySize", "hipFuncAttributeMaxDynamicSharedMemorySize",
                      "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES",
                      "HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES"})


@rule(
    "C2R-K402", "Dynamic shared memory larger than the target's LDS",
    family=FAMILY, severity=Severity.CRITICAL, confidence=Confidence.HIGH, layer=LAYER,
    what="Evaluates the dynamic shared-memory size of `<<<grid, block, SMEM>>>` launches with a non-zero SMEM "
         "(plus the kernel's static shared memory; a static excess alone is C2R-K401's, at the array) and of "
         "`cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, N)` "
         "and compares it with the target GPU's LDS per workgroup.",
    why=_WHY,
    example="__global__ void k(float* p) { extern __shared__ float s[]; s[0] = p[0]; }\n"
            "void run(float* p) { k<<<1, 256, 96 * 1024>>>(p); }\n",
    instead="Keep the dynamic size within the target's LDS (query `hipDeviceAttributeMaxSharedMemoryPerBlock`).\n"
            "__global__ void k(float* p) { extern __shared__ float s[]; s[0] = p[0]; }\n"
            "void run(float* p) { k<<<1, 256, 48 * 1024>>>(p); }\n",
    references=(GPU_SPECS,),
    # only launches (find_launches() needs a <<< token) and calls of the _SET_ATTR names are read
    requires=("<<<", *sorted(_SET_ATTR)),
)
def check_dynamic_lds(src: Source) -> Iterator[Hit]:
    base = file_env(src)
    limit = src.target.lds_bytes
    kernels = {f.name: f for f in src.device_functions()}
    for launch in src.launches:
        if len(launch.config) < 3:
            continue
        code = src.range_code(*launch.config[2])
        dyn = _value(src, code, base)
        fn = kernels.get(launch.name)
        static = static_bytes(src, fn, base) if fn is not None else None
        if not dyn:  # no dynamic part: a static excess alone is C2R-K401's, at the array
            continue
        total = dyn + (static[0] if static else 0)
        if total > limit:
            yield Hit("C2R-K402", code[0], f"{total} bytes of shared memory per block{_sources(src, code, base)} "
                      f"exceed the {src.target.lds_kib} KiB LDS of {src.target.name}")
    yield from _attribute_sizes(src, base, limit)


def _attribute_sizes(src: Source, base: Env, limit: int) -> Iterator[Hit]:
    for i in src.idents(_SET_ATTR):
        args = src.args(i)  # the kernel may be a template with commas of its own: k<128, 4>
        if len(args) < 3 or src.compact(*args[-2]).split("::")[-1] not in _MAX_DYN:
            continue
        code = src.range_code(*args[-1])
        value = _value(src, code, base)
        if value is not None and value > limit:
            yield Hit("C2R-K402", code[0], f"dynamic shared memory limit {value} bytes{_sources(src, code, base)} "
                      f"exceeds the {src.target.lds_kib} KiB LDS of {src.target.name}")


def _value(src: Source, code: list[int], base: Env) -> int | None:
    if not code:
        return None
    toks = [src.tokens[k] for k in code]
    if all(t.kind != "IDENT" for t in toks):  # the environment binds names only: without one it is never read
        return evaluate(toks, base)
    return evaluate(toks, local_env(src, src.function_at(code[0]), base))


#: at most this many names are explained in one message
_EXPLAINED = 4


def _sources(src: Source, code: list[int], base: Env) -> str:
    """`` (smem_bytes = kStages * 128 * sizeof(half) at line 6; kStages = 5 at line 2)``: where the names of a
    size expression get their values, one level of variables deep (a header's constants are named by the engine
    on the finding's own line, and here when a variable of the file uses them)."""
    env = local_env(src, src.function_at(code[0]), base) if code else base
    told: list[str] = []
    names = _names([src.tokens[k] for k in code])
    k = 0
    while k < len(names) and len(told) < _EXPLAINED:
        name = names[k]
        k += 1
        head, _, member = name.partition("::")
        if member and name not in env and head in env:  # Traits::kTileM with Traits bound to Big: Big::kTileM
            names[k:k] = [head, "::".join([*_names(env[head]), member])]
            continue
        toks = env.get(name)
        if not toks or name in type_sizes() or any(t.startswith(name + " =") for t in told):
            continue
        told.append(where(src, name) or spelled(src, name, toks))
        names.extend(_names(toks))  # what the variable's value is made of
    return f" ({'; '.join(told)})" if told else ""


def _names(toks: Sequence[Token]) -> list[str]:
    """The names of an expression, qualified ones whole (``Traits::kTileM``), ``sizeof`` left out."""
    out: list[str] = []
    joined = False
    for t in toks:
        if t.src == "::":
            joined = bool(out)
        elif t.kind == "IDENT" and t.src != "sizeof":
            out[-1:] = [f"{out[-1]}::{t.src}"] if joined else [*out[-1:], t.src]
            joined = False
        else:
            joined = False
    return out
