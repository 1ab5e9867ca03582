"""K6xx: atomics and the memory model (scopes, coherence, forward progress)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from cuda2rocm.hazards.common import CUDA_GUIDE, FAMILY, HIP_GUIDE, LAYER, first_per_scope
from cuda2rocm.hazards.context import Hit, Source
from cuda2rocm.hazards.flow import flow_of, mentions
from cuda2rocm.lazyre import lazy
from cuda2rocm.model import Confidence, Severity
from cuda2rocm.rules import rule

_ATOMICS = frozenset({"atomicAdd", "atomicSub", "atomicExch", "atomicMin", "atomicMax", "atomicInc", "atomicDec",
                      "atomicCAS", "atomicAnd", "atomicOr", "atomicXor"})
_SYSTEM = frozenset({f"{a}_system" for a in _ATOMICS} | {"__threadfence_system", "thread_scope_system"})
_HALF = ("half", "__half", "__half2", "half2", "__nv_bfloat16", "__nv_bfloat162", "__hip_bfloat16", "nv_bfloat16")
MEMORY_MODEL = "https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_runtime_api/memory_management/coherence_control.html"


@rule(
    "C2R-K601", "System-scope atomics and fences",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds `atomic*_system`, `__threadfence_system()` and `cuda::thread_scope_system`.",
    why="On AMD GPUs system-scope atomics are only coherent with the host/peers on fine-grained memory "
        "(`hipHostMalloc` coherent, `hipMallocManaged` with coarse-grain disabled); on ordinary device or "
        "coarse-grained memory they silently act device-wide, and PCIe atomics need platform support.",
    example="__global__ void k(int* flag) { atomicAdd_system(flag, 1); }\n",
    instead="Allocate the shared buffer as fine-grained (`hipHostMallocCoherent`/`hipExtMallocWithFlags`) and "
            "document it, or use device-scope atomics when only the GPU observes the value.\n"
            "__global__ void k(int* flag) { atomicAdd(flag, 1); }\n",
    references=(MEMORY_MODEL,),
    # every name of _SYSTEM ends in _system
    requires=("_system",),
)
def check_system_scope(src: Source) -> Iterator[Hit]:
    for i in src.idents(_SYSTEM):
        yield Hit("C2R-K601", i, f"'{src.src(i)}' needs fine-grained (coherent) memory on AMD")


@rule(
    "C2R-K602", "Atomics on 16-bit floating-point types",
    family=FAMILY, severity=Severity.MEDIUM, confidence=Confidence.MEDIUM, layer=LAYER,
    what="Finds `atomicAdd`/`atomicMax`/... whose target is `half`, `__half2` or `__nv_bfloat16` memory.",
    why="Packed 16-bit float atomics exist only on some AMD architectures and memory kinds; elsewhere they are "
        "compiled as compare-and-swap loops (slow under contention) or are missing from older HIP releases.",
    example="__global__ void k(__half* acc, __half v) { atomicAdd(&acc[0], v); }\n",
    instead="Accumulate in `float` (atomicAdd on float) and convert once, or reduce in LDS first.\n"
            "__global__ void k(float* acc, float v) { atomicAdd(&acc[0], v); }\n",
    references=(HIP_GUIDE,),
    # hits are calls of the _ATOMICS identifiers, all atomic*
    requires=("atomic",),
)
def check_half_atomics(src: Source) -> Iterator[Hit]:
    for fn in src.device_functions():
        calls = list(src.idents(_ATOMICS, fn.body_open, fn.body_close))
        types = flow_of(src, fn).types if calls else {}
        for i in calls:
            args = src.args(i)
            base = next((k for k in src.range_code(*args[0]) if src.kind(k) == "IDENT"), None) if args else None
            type_ = types.get(src.src(base), "") if base is not None else ""
            if any(w in _HALF for w in type_.replace("*", " ").split()):
                yield Hit("C2R-K602", i, f"{src.src(i)} on '{type_.strip()}' is a CAS loop or unsupported on AMD")


def loop_parts(src: Source, while_i: int) -> tuple[int, int, int, int] | None:
    """(cond open, cond close, body start, body end) of ``while (c) body`` / ``do body while (c);``."""
    open_ = src.next(while_i)
    if src.src(open_) != "(" or open_ not in src.pairs:
        return None
    close = src.pairs[open_]
    body = src.next(close)
    if src.src(body) == ";":  # `while (c);` or the tail of `do {...} while (c);`
        prev = src.prev(while_i)
        if src.src(prev) == "}" and prev in src.pairs and src.src(src.prev(src.pairs[prev])) == "do":
            return open_, close, src.pairs[prev], prev
        return open_, close, body, body
    if src.src(body) == "{" and body in src.pairs:
        return open_, close, body, src.pairs[body]
    return None


def _trivial(src: Source, start: int, end: int) -> bool:
    """An empty body or one that only backs off / fences."""
    allowed = {"{", "}", ";", "(", ")", "__nanosleep", "__threadfence", "__threadfence_block",
               "__builtin_amdgcn_s_sleep"}
    return all(src.src(k) in allowed or src.is_number(k) for k in src.range_code(start, end + 1))


@rule(
    "C2R-K603", "Spin lock that relies on independent thread scheduling",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.MEDIUM, layer=LAYER,
    what="Finds busy-wait lock acquisition `while (atomicCAS(&lock, 0, 1) != 0);` / `while (atomicExch(...))` "
         "/ `do { old = atomicCAS(&lock, 0, 1); } while (old != 0);` executed per thread (not inside "
         "`if (threadIdx.x == 0)` or `if (lane == 0)`; a CAS loop that updates a value is lock-free and not "
         "reported).",
    why="CUDA since Volta guarantees forward progress to diverged threads of a warp (independent thread "
        "scheduling). AMD wavefronts do not: when two lanes of one wavefront contend for the lock, the winner "
        "never runs its critical section while the loser spins, and the kernel hangs.",
    example="__device__ void lock(int* m) { while (atomicCAS(m, 0, 1) != 0); }\n",
    instead="Elect one lane per wavefront to take the lock, or restructure with atomics that need no lock.\n"
            "__device__ void lock(int* m) { if (__lane_id() == 0) { int got = atomicCAS(m, 0, 1); (void)got; } }\n",
    references=(CUDA_GUIDE,),
    # a lock needs an identifier atomicCAS/atomicExch in the loop condition or body
    requires=("atomicCAS", "atomicExch"),
)
def check_spin_locks(src: Source) -> Iterator[Hit]:
    for fn in src.device_functions():
        for w in src.idents(frozenset({"while"}), fn.body_open, fn.body_close):
            parts = loop_parts(src, w)
            if not parts or _elected(src, w, fn.body_open):
                continue
            if (mentions(src, parts[0], parts[1], frozenset({"atomicCAS", "atomicExch"}))
                    and _trivial(src, parts[2], parts[3])) or _do_lock(src, parts):
                yield Hit("C2R-K603", w, "per-thread spin lock: lanes of one wavefront can deadlock on AMD")


_ELECTED = lazy(r"^\(?(threadIdx\.[xyz]|\w*(lane|tid)\w*|__lane_id\(\))==0\)?$", re.IGNORECASE)


def _elected(src: Source, w: int, body_open: int) -> bool:
    """The loop sits inside ``if (threadIdx.x == 0) {...}`` / ``if (lane == 0)``: one thread takes the lock."""
    for k in src.idents(frozenset({"if"}), body_open, w):
        cond = src.next(k)
        if src.src(cond) != "(" or cond not in src.pairs:
            continue
        body = src.next(src.pairs[cond])
        end = src.pairs.get(body, -1) if src.src(body) == "{" else src.statement_end(body)
        if body <= w <= end and _ELECTED().match(src.compact(cond + 1, src.pairs[cond])):
            return True
    return False


def _do_lock(src: Source, parts: tuple[int, int, int, int]) -> bool:
    """``do { old = atomicCAS(lock, 0, 1); } while (old != 0);``: a lock taken with constant values (a CAS
    loop that updates a value passes variables, and is lock-free)."""
    cond_open, cond_close, start, end = parts
    if src.src(start) != "{":
        return False
    calls = [k for k in src.idents(frozenset({"atomicCAS", "atomicExch"}), start, end) if src.is_call(k)]
    if len(calls) != 1:
        return False
    call = calls[0]
    args = src.args(call)
    if len(args) < 2 or not all(all(src.is_number(t) for t in src.range_code(a, b)) for a, b in args[1:]):
        return False
    target = src.prev(call, 2) if src.src(src.prev(call)) == "=" else -1
    return target >= 0 and mentions(src, cond_open, cond_close, frozenset({src.src(target)}))


@rule(
    "C2R-K604", "Polling a volatile flag",
    family=FAMILY, severity=Severity.MEDIUM, confidence=Confidence.MEDIUM, layer=LAYER,
    what="Finds wait loops whose condition reads a `volatile` variable or pointer (`while (*flag == 0);`).",
    why="`volatile` is not a synchronisation primitive: on AMD the load may hit a non-coherent cache (L2 is "
        "per-XCD on MI300, host memory may be coarse-grained), and there is no acquire ordering for the data "
        "the flag guards.",
    example="__global__ void k(volatile int* flag) { while (*flag == 0) { } }\n",
    instead="Use an atomic load with acquire semantics and a scope: "
            "`__hip_atomic_load(flag, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT)` or `cuda::atomic_ref`.\n"
            "__global__ void k(int* flag) { while (__hip_atomic_load(flag, __ATOMIC_ACQUIRE, "
            "__HIP_MEMORY_SCOPE_AGENT) == 0) { } }\n",
    references=(MEMORY_MODEL,),
    # the condition names the keyword volatile or a variable declared with it (flow, file scope)
    requires=("volatile",),
)
def check_volatile_polling(src: Source) -> Iterator[Hit]:
    for fn in src.device_functions():
        loops = list(src.idents(frozenset({"while"}), fn.body_open, fn.body_close))
        volatile = flow_of(src, fn).volatile | _file_volatiles(src) if loops else set()
        for w in loops:
            parts = loop_parts(src, w)
            if parts and mentions(src, parts[0], parts[1], volatile | {"volatile"}):
                yield Hit("C2R-K604", w, "busy-wait on a volatile flag: use an atomic acquire load")


def _file_volatiles(src: Source) -> set[str]:
    """Names of ``volatile`` variables declared at file scope (``__device__ volatile int done;``), cached."""
    cached = src.cache.get("file_volatiles")
    if cached is None:
        cached = set()
        for v in src.idents(frozenset({"volatile"})):
            if src.function_at(v) is not None:
                continue
            name, k = "", src.next(v)
            while src.kind(k) == "IDENT" or src.src(k) in ("*", "::"):
                name = src.src(k) if src.kind(k) == "IDENT" else name
                k = src.next(k)
            if name and src.src(k) in (";", "=", "[", ","):
                cached.add(name)
        src.cache["file_volatiles"] = cached
    return set(cached)


_MANAGED_ALLOC = frozenset({"cudaMallocManaged", "hipMallocManaged"})
UNIFIED_MEMORY = "https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_runtime_api/memory_management/unified_memory.html"


@rule(
    "C2R-K605", "Managed (unified) memory: on AMD it moves to the GPU only with XNACK on",
    family=FAMILY, severity=Severity.MEDIUM, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds `cudaMallocManaged(...)` calls and `__managed__` variables (one report per function or file "
         "scope).",
    why="NVIDIA GPUs migrate managed pages on demand. On AMD, pages migrate on a GPU page fault only when XNACK "
        "is on: an XNACK-capable GPU (MI200, MI300) run with `HSA_XNACK=1`. Otherwise ROCm keeps the "
        "allocation in host memory and every kernel access crosses PCIe or Infinity Fabric: the code runs, "
        "tens of times slower (HIP unified-memory guide; hipDF managed-memory guide, 2025-11-04).",
    example="__global__ void k(float* p) { p[threadIdx.x] += 1.f; }\n"
            "void run(int n) { float* p; cudaMallocManaged(&p, n * sizeof(float)); k<<<1, n>>>(p); }\n",
    instead="Run with `HSA_XNACK=1` on an XNACK-capable GPU (`rocminfo | grep xnack+`), prefetch with "
            "`hipMemPrefetchAsync`, or allocate with `hipMalloc` and copy explicitly.\n"
            "__global__ void k(float* p) { p[threadIdx.x] += 1.f; }\n"
            "void run(int n) { float* p; cudaMalloc(&p, n * sizeof(float)); k<<<1, n>>>(p); }\n",
    references=(UNIFIED_MEMORY,),
    # identifiers cudaMallocManaged/hipMallocManaged or __managed__
    requires=("MallocManaged", "__managed__"),
)
def check_managed_memory(src: Source) -> Iterator[Hit]:
    calls = (i for i in src.idents(_MANAGED_ALLOC) if src.is_call(i))
    declared = src.idents(frozenset({"__managed__"}))
    for i in first_per_scope(src, iter(sorted([*calls, *declared]))):
        what = "__managed__ variable" if src.src(i) == "__managed__" else f"{src.src(i)} allocation"
        yield Hit("C2R-K605", i, f"{what}: on AMD pages migrate to the GPU only with XNACK on (HSA_XNACK=1 on "
                  "MI200/MI300); otherwise kernels read it from host memory")
