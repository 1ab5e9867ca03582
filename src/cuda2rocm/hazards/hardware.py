"""K5xx: NVIDIA-only hardware features (tensor-core APIs, TMA/async copies, clusters, FP8 formats, hints)."""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.hazards.common import CUDA_GUIDE, FAMILY, HIP_GUIDE, LAYER, first_per_line
from cuda2rocm.hazards.context import Hit, Source
from cuda2rocm.hazards.ptx import triaged_blocks
from cuda2rocm.hazards.targets import Target
from cuda2rocm.model import Confidence, Edit, Severity
from cuda2rocm.rules import rule
from cuda2rocm.source.tokens import HEADER

ROCWMMA = "https://rocm.docs.amd.com/projects/rocWMMA/en/latest/"
CK = "https://rocm.docs.amd.com/projects/composable_kernel/en/latest/"


def _names(src: Source, names: frozenset[str], *, calls_only: bool = False) -> Iterator[int]:
    for i in src.idents(names):
        if not calls_only or src.is_call(i):
            yield i


def _header(src: Source, names: tuple[str, ...]) -> Iterator[int]:
    for i in src.of_kind(HEADER):
        if src.tokens[i].src.strip("<>\"") in names:
            yield i


@rule(
    "C2R-K501", "WMMA tensor-core API (nvcuda::wmma)",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds every use of the `nvcuda::wmma` API (`wmma::fragment`, `load_matrix_sync`, `mma_sync`, "
         "`store_matrix_sync`, `fill_fragment`, through namespace aliases, `using namespace nvcuda::wmma` and "
         "`using nvcuda::wmma::mma_sync` too) and `<mma.h>`, one report per line, and inline PTX "
         "that drives the tensor cores (`mma.sync`, `ldmatrix`, `wgmma`, `tcgen05`; also reported by C2R-K3xx).",
    why="WMMA is NVIDIA's tensor-core API; HIP has no `nvcuda::wmma`. AMD matrix cores (MFMA) are reached "
        "through rocWMMA (same fragment model, different tile shapes per architecture) or MFMA builtins.",
    example="#include <mma.h>\n__global__ void k(half* a) {\n"
            "  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, half, nvcuda::wmma::row_major> f;\n}\n",
    instead="Port to rocWMMA (`rocwmma::fragment`, `rocwmma::mma_sync`) or Composable Kernel.\n"
            "#include <rocwmma/rocwmma.hpp>\n__global__ void k(half* a) {\n"
            "  rocwmma::fragment<rocwmma::matrix_a, 16, 16, 16, half, rocwmma::row_major> f;\n}\n",
    references=(ROCWMMA, CUDA_GUIDE),
    # tokens wmma/nvcuda (aliases and using-declarations name nvcuda::wmma), the header mma.h, or an asm block
    requires=("wmma", "nvcuda", "mma.h", "asm"),
)
def check_wmma(src: Source) -> Iterator[Hit]:
    names = {"wmma", "nvcuda"} | _wmma_aliases(src)
    uses = sorted([*_names(src, frozenset(names)), *_header(src, ("mma.h",)), *_unqualified_wmma(src)])
    for i in first_per_line(src, iter(uses)):
        yield Hit("C2R-K501", i, "WMMA tensor-core API: port to rocWMMA or MFMA builtins")
    for i, found in triaged_blocks(src):
        ops = [t.opcode for t in found if t.key.split(".")[0] in _TENSOR_CORE_PTX]
        if ops:
            yield Hit("C2R-K501", i, f"inline PTX '{ops[0]}' drives NVIDIA tensor cores: port to rocWMMA or "
                      "MFMA builtins")


#: PTX instruction families (first component of the table key) that run on the tensor cores
_TENSOR_CORE_PTX = frozenset({"mma", "wmma", "ldmatrix", "stmatrix", "wgmma", "tcgen05"})


#: the names of the nvcuda::wmma namespace (types, layouts, functions)
_WMMA_API = frozenset({"fragment", "matrix_a", "matrix_b", "accumulator", "row_major", "col_major", "mem_row_major",
                       "mem_col_major", "layout_t", "fill_fragment", "load_matrix_sync", "store_matrix_sync",
                       "mma_sync", "bmma_sync", "precision", "experimental"})


def _unqualified_wmma(src: Source) -> Iterator[int]:
    """WMMA names used without a qualifier where the file opens the namespace: after ``using namespace
    nvcuda::wmma;`` every unqualified WMMA API name (``mma_sync(c, a, b, c)``), after ``using nvcuda::wmma::X;``
    that name. A project's own ``fragment`` in a file that opens neither is not WMMA."""
    if "using" not in src.text or "wmma" not in src.text:
        return
    opened, declared = False, set()
    for i in src.idents(frozenset({"wmma"})):
        if src.src(src.prev(i)) != "::" or src.src(src.prev(i, 2)) != "nvcuda":
            continue
        head = src.prev(i, 3)
        if src.src(head) == "namespace" and src.src(src.prev(head)) == "using" and src.src(src.next(i)) == ";":
            opened = True
        elif src.src(head) == "using" and src.src(src.next(i)) == "::":
            declared.add(src.src(src.next(i, 2)))
    names = _WMMA_API if opened else frozenset(declared & _WMMA_API)
    for i in src.idents(names):
        if src.src(src.prev(i)) not in ("::", ".", "->"):
            yield i


def _wmma_aliases(src: Source) -> set[str]:
    """Names given to the WMMA namespace: ``namespace w = nvcuda::wmma;``."""
    out: set[str] = set()
    for i in src.idents(frozenset({"wmma"})):
        if src.src(src.prev(i)) == "::" and src.src(src.prev(i, 2)) == "nvcuda" and src.src(src.prev(i, 3)) == "=" \
                and src.src(src.prev(i, 5)) == "namespace" and src.kind(src.prev(i, 4)) == "IDENT":
            out.add(src.src(src.prev(i, 4)))
    return out


_ASYNC = frozenset({"__pipeline_memcpy_async", "__pipeline_commit", "__pipeline_wait_prior", "memcpy_async",
                    "cuTensorMapEncodeTiled", "cuTensorMapEncodeIm2col", "CUtensorMap", "cp_async_bulk_tensor",
                    "make_tensor_map", "cuda_pipeline", "pipeline_producer_commit"})


@rule(
    "C2R-K502", "Asynchronous copies / TMA (memcpy_async, pipelines, tensor maps)",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds `__pipeline_memcpy_async`, `cuda::memcpy_async`, `cuda::pipeline`, TMA tensor maps "
         "(`CUtensorMap`, `cuTensorMapEncodeTiled`) and inline PTX `cp.async` / `cp.async.bulk` (also reported by "
         "C2R-K3xx as PTX).",
    why="These drive NVIDIA's asynchronous copy engine (Ampere cp.async, Hopper TMA). AMD GPUs have no TMA; "
        "copies into LDS are ordinary loads (or `buffer_load ... lds` on gfx950) that the kernel must double "
        "buffer itself.",
    example="__global__ void k(const float* g) {\n  __shared__ float s[256];\n"
            "  __pipeline_memcpy_async(&s[threadIdx.x], &g[threadIdx.x], sizeof(float));\n"
            "  __pipeline_commit();\n  __pipeline_wait_prior(0);\n}\n",
    instead="Load into `__shared__` with plain loads and `__syncthreads()`; use Composable Kernel pipelines.\n"
            "__global__ void k(const float* g) {\n  __shared__ float s[256];\n"
            "  s[threadIdx.x] = g[threadIdx.x];\n  __syncthreads();\n}\n",
    references=(CK, CUDA_GUIDE),
    # a name of _ASYNC or cuda::pipeline/make_pipeline (each holds one of these), or an asm block
    requires=("pipeline", "memcpy_async", "TensorMap", "CUtensorMap", "cp_async_bulk_tensor", "make_tensor_map", "asm"),
)
def check_async_copy(src: Source) -> Iterator[Hit]:
    for i in first_per_line(src, iter(sorted([*_names(src, _ASYNC), *_cuda_pipeline(src)]))):
        yield Hit("C2R-K502", i, f"'{src.src(i)}' uses NVIDIA's async-copy/TMA hardware")
    for i, found in triaged_blocks(src):
        ops = [t.opcode for t in found if t.opcode.startswith("cp.async")]
        if ops:
            what = "Hopper's TMA (bulk copies)" if any(o.startswith("cp.async.bulk") for o in ops) else \
                "Ampere's asynchronous copy engine"
            yield Hit("C2R-K502", i, f"inline PTX '{ops[0]}' drives {what}: no AMD counterpart, load into LDS with "
                      "plain loads")


def _cuda_pipeline(src: Source) -> Iterator[int]:
    """``cuda::pipeline<...>`` and ``cuda::make_pipeline()`` (libcu++); a user's own ``pipeline`` is not one."""
    for i in src.idents(frozenset({"pipeline", "make_pipeline"})):
        if src.src(src.prev(i)) == "::" and src.src(src.prev(i, 2)) == "cuda":
            yield i


_CLUSTER = frozenset({"__cluster_dims__", "this_cluster", "cluster_group", "map_shared_rank",
                      "cudaLaunchAttributeClusterDimension", "cudaFuncAttributeNonPortableClusterSizeAllowed",
                      "cudaFuncAttributeRequiredClusterWidth", "cudaOccupancyMaxActiveClusters"})


@rule(
    "C2R-K503", "Thread-block clusters and distributed shared memory",
    family=FAMILY, severity=Severity.CRITICAL, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds thread-block clusters (`__cluster_dims__`, `cooperative_groups::this_cluster`, launch cluster "
         "attributes) and distributed shared memory (`cluster.map_shared_rank`).",
    why="Clusters and DSMEM are Hopper hardware: a block cannot read another block's LDS on AMD GPUs. The "
        "algorithm needs a different decomposition (global memory exchange, larger workgroups).",
    example="__global__ void __cluster_dims__(2, 1, 1) k(float* p) { p[0] = 1.0f; }\n",
    instead="Exchange data through global memory (or one larger workgroup) and drop the cluster launch.\n"
            "__global__ void k(float* p) { p[0] = 1.0f; }\n",
    references=(CUDA_GUIDE,),
    # every name of _CLUSTER holds cluster, Cluster or is map_shared_rank
    requires=("cluster", "Cluster", "map_shared_rank"),
)
def check_clusters(src: Source) -> Iterator[Hit]:
    for i in first_per_line(src, _names(src, _CLUSTER)):
        yield Hit("C2R-K503", i, f"'{src.src(i)}': thread-block clusters / distributed shared memory are "
                  "NVIDIA-only")


@rule(
    "C2R-K504", "__nanosleep",
    family=FAMILY, severity=Severity.MEDIUM, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds calls of `__nanosleep(ns)`.",
    why="`__nanosleep` is a Volta+ instruction; HIP has no nanosecond sleep. Back-off loops must use "
        "`__builtin_amdgcn_s_sleep(n)` (n x 64 clocks) instead.",
    example="__device__ void backoff() { __nanosleep(100); }\n",
    instead="Use `__builtin_amdgcn_s_sleep(2)` under `__HIP_PLATFORM_AMD__`.\n"
            "__device__ void backoff() { __builtin_amdgcn_s_sleep(2); }\n",
    references=(HIP_GUIDE,),
    # a call of the identifier __nanosleep
    requires=("__nanosleep",),
)
def check_nanosleep(src: Source) -> Iterator[Hit]:
    for i in _names(src, frozenset({"__nanosleep"}), calls_only=True):
        yield Hit("C2R-K504", i, "__nanosleep has no HIP equivalent: use __builtin_amdgcn_s_sleep")


_FP8 = frozenset({"__nv_fp8_e4m3", "__nv_fp8_e5m2", "__nv_fp8x2_e4m3", "__nv_fp8x2_e5m2", "__nv_fp8x4_e4m3",
                  "__nv_fp8x4_e5m2", "__nv_fp8_storage_t", "__NV_E4M3", "__NV_E5M2", "Float8_e4m3fn",
                  "kFloat8_e4m3fn", "Float8_e5m2", "kFloat8_e5m2", "float8_e4m3fn", "__nv_cvt_float_to_fp8",
                  "float_e4m3_t", "float_e5m2_t"})  # the last two: CUTLASS/CuTe's (cutlass::float_e4m3_t)


@rule(
    "C2R-K505", "FP8 in NVIDIA/OCP encoding (E4M3FN/E5M2) on a GPU that uses FNUZ or has no FP8",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds CUDA FP8 types and conversions (`__nv_fp8_e4m3`, `cuda_fp8.h`, `at::kFloat8_e4m3fn`), CUTLASS's "
         "(`cutlass::float_e4m3_t`, `float_e5m2_t`) and, in Python, PyTorch's (`torch.float8_e4m3fn`, "
         "`torch.float8_e5m2`) when the target GPU's FP8 is FNUZ (MI300: gfx942) or missing (MI100/MI200).",
    why="MI300 implements FP8 as E4M3FNUZ/E5M2FNUZ: a different exponent bias, no negative zero, a different "
        "NaN. Bit patterns written by NVIDIA code decode to values off by a factor of two (and NaNs differ); "
        "checkpoints and scales must be converted. MI350 (gfx950) uses the OCP formats.",
    example="#include <cuda_fp8.h>\n"
            "__global__ void k(__nv_fp8_e4m3* q, const float* x) { q[0] = __nv_fp8_e4m3(x[0]); }\n",
    instead="Use the target's FP8 type (`__hip_fp8_e4m3_fnuz` on gfx942, `__hip_fp8_e4m3` on gfx950; "
            "`torch.float8_e4m3fnuz` in PyTorch) and convert stored tensors/scales.\n#include <hip/hip_fp8.h>\n"
            "__global__ void k(__hip_fp8_e4m3_fnuz* q, const float* x) { q[0] = __hip_fp8_e4m3_fnuz(x[0]); }\n",
    references=("https://rocm.docs.amd.com/en/latest/reference/precision-support.html",),
    # every name of _FP8 and the header cuda_fp8.h hold one of these
    requires=("fp8", "__NV_E4M3", "__NV_E5M2", "Float8_e", "float8_e", "float_e4m3", "float_e5m2"),
)
def check_fp8(src: Source) -> Iterator[Hit]:
    if src.target.fp8 == "ocp":
        return
    uses = sorted([*_names(src, _FP8), *_header(src, ("cuda_fp8.h",))])
    for i in first_per_line(src, iter(uses)):
        yield Hit("C2R-K505", i, fp8_message(src.src(i), src.target))


def fp8_message(name: str, target: Target) -> str:
    """The finding's message for an OCP/NVIDIA FP8 name on ``target`` (one whose FP8 is not OCP); the Python
    analyzer reports PyTorch's FP8 dtypes with it too."""
    what = "uses FNUZ FP8" if target.fp8 == "fnuz" else "has no FP8 hardware"
    return f"OCP/NVIDIA FP8 ('{name}') but {target.name} {what}"


_HINT_LOADS = frozenset({"__ldcs", "__ldcg", "__ldca", "__ldlu", "__ldcv"})
_HINT_STORES = frozenset({"__stcs", "__stcg", "__stwb", "__stwt"})


@rule(
    "C2R-K506", "Cache-hint loads and stores HIP lacks (__ldcs, __stcs...)",
    family=FAMILY, severity=Severity.LOW, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds `__ldcs`, `__ldcg`, `__ldca`, `__ldlu`, `__ldcv`, `__stcs`, `__stcg`, `__stwb`, `__stwt`. "
         "The safe fix rewrites the load variants to a plain load `(*(p))` and the stores to `(*(p) = (v))`, "
         "which is what they do apart from the hint. `__ldg` is not reported: HIP supports it (a plain load).",
    why="The hints target NVIDIA's L1/L2 policies. On AMD `__ldg` is a plain load; HIP declares `__ldcs`, `__ldcg` "
        "and `__ldca` for `__half`/`__half2` only and the other variants not at all, so calls on `float4`, `int4` "
        "or a user type do not compile; the performance intent (bypass/evict-first) is lost either way.",
    example="__global__ void k(float* o, const float* i) { o[threadIdx.x] = __ldcs(&i[threadIdx.x]); }\n",
    instead="Use plain loads, or `__builtin_nontemporal_load`/`__builtin_nontemporal_store` for streaming data.\n"
            "__global__ void k(float* o, const float* i) "
            "{ o[threadIdx.x] = __builtin_nontemporal_load(&i[threadIdx.x]); }\n",
    references=(HIP_GUIDE,),
    # calls of the _HINT_LOADS/_HINT_STORES identifiers (__ldcs/cg/ca/cv, __ldlu, __stcs/cg, __stwb/wt)
    requires=("__ldc", "__ldlu", "__stc", "__stw"),
)
def check_cache_hints(src: Source) -> Iterator[Hit]:
    for i in _names(src, _HINT_LOADS | _HINT_STORES, calls_only=True):
        yield Hit("C2R-K506", i, f"{src.src(i)}: NVIDIA cache hint; HIP has it for __half/__half2 at most, so other "
                  "types do not compile", _plain_access(src, i))


def _plain_access(src: Source, i: int) -> tuple[Edit, ...]:
    """``__ldcs(p)`` -> ``(*(p))``, ``__stcs(p, v)`` -> ``(*(p) = (v))``; nothing for other argument counts.

    Hint calls nested in the arguments are rewritten inside the same edit (it overlaps, and so replaces, theirs).
    """
    body = _plain_call(src, i)
    return () if body is None else (src.replace_range(i, src.pairs[src.next(i)], body, "C2R-K506"),)


def _plain_call(src: Source, i: int) -> str | None:
    args = src.args(i)
    store = src.src(i) in _HINT_STORES
    if src.next(i) not in src.pairs or len(args) != (2 if store else 1):
        return None
    texts = [_plain_text(src, a, b) for a, b in args]
    return f"(*({texts[0]}) = ({texts[1]}))" if store else f"(*({texts[0]}))"


def _plain_text(src: Source, start: int, end: int) -> str:
    """The text of tokens [start, end) with the hint calls in it rewritten (stripped)."""
    parts: list[str] = []
    j = start
    while j < end:
        inner = _plain_call(src, j) if src.src(j) in _HINT_LOADS | _HINT_STORES and src.is_call(j) else None
        if inner is not None:
            parts.append(inner)
            j = src.pairs[src.next(j)] + 1
            continue
        parts.append(src.src(j))
        j += 1
    return "".join(parts).strip()


_HANDLE_TYPES = frozenset({"cudaTextureObject_t", "cudaSurfaceObject_t", "hipTextureObject_t", "hipSurfaceObject_t"})
_INT_OPS = frozenset({"&", "|", "^", "<<", ">>", "+", "-", "*", "/", "%", "&=", "|=", "^=", "<<=", ">>="})
_OPERAND_END = frozenset({")", "]"})


@rule(
    "C2R-K507", "Texture or surface object handle used as an integer",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.MEDIUM, layer=LAYER,
    what="Finds `cudaTextureObject_t`/`cudaSurfaceObject_t` values combined with integer operators (`t & 0xFFFFFFFF`, "
         "`t >> 32`, `h | v << 32`) and integers cast to those types (`(cudaTextureObject_t)v.x`): code that "
         "packs handles into integers.",
    why="CUDA's handles are `unsigned long long`; HIP's `hipTextureObject_t` and `hipSurfaceObject_t` are pointers "
        "(`struct __hip_texture*`), so integer arithmetic on them does not compile, and packing them into 32-bit "
        "halves needs pointer casts.",
    example="__host__ __device__ unsigned lo(cudaTextureObject_t t) { return (unsigned)(t & 0xFFFFFFFF); }\n",
    instead="Keep handles opaque (store the handle itself), or convert explicitly through `uintptr_t` / "
            "`reinterpret_cast` on both sides.\n"
            "__host__ __device__ cudaTextureObject_t same(cudaTextureObject_t t) { return t; }\n",
    references=("https://rocm.docs.amd.com/projects/HIP/en/latest/reference/hip_runtime_api/modules/"
                "texture_management.html",),
    # every hit follows a token named in _HANDLE_TYPES (cuda/hip TextureObject_t, SurfaceObject_t)
    requires=("TextureObject_t", "SurfaceObject_t"),
)
def check_handle_arithmetic(src: Source) -> Iterator[Hit]:
    handles = src.tokens_named(_HANDLE_TYPES)
    if not handles:
        return
    seen: set[int] = set()
    for n in (src.next(i) for i in handles):
        if n >= len(src.tokens) or src.kind(n) != "IDENT":
            continue
        start, end = _scope(src, n)  # the handle's function (a parameter belongs to its function's body)
        for i in src.idents(frozenset({src.src(n)}), start, end):
            if i not in seen and _integer_use(src, i):
                seen.add(i)
                yield Hit("C2R-K507", i, f"'{src.src(i)}' is a texture/surface object: an integer in CUDA, a "
                          "pointer in HIP")
    for i in handles:  # (cudaTextureObject_t)integer
        if src.src(src.prev(i)) == "(" and src.src(src.next(i)) == ")" and src.kind(src.next(i, 2)) in (
                "IDENT", "NUMBER", "PUNCT") and src.src(src.next(i, 2)) not in (";", ",", ")"):
            yield Hit("C2R-K507", i, f"cast to {src.src(i)}: an integer becomes a handle (a pointer in HIP)")


def _scope(src: Source, i: int) -> tuple[int, int]:
    for fn in src.functions:
        if fn.params_open < i < fn.params_close or fn.body_open < i < fn.body_close:
            return fn.body_open, fn.body_close
    return 0, len(src.tokens)


def _integer_use(src: Source, i: int) -> bool:
    """``t & m``, ``t >> 32``, ``x | t``: an integer operator next to the handle (a unary ``&t``/``-t`` is not)."""
    if src.src(src.next(i)) in _INT_OPS:
        return True
    before = src.prev(i)
    if src.src(before) not in _INT_OPS:
        return False
    left = src.prev(before)
    ends_operand = left >= 0 and (src.kind(left) in ("IDENT", "NUMBER") or src.src(left) in _OPERAND_END)
    return ends_operand and src.src(left) not in ("return", "case")
