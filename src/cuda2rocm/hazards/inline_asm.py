"""K3xx: inline PTX. hipcc cannot assemble PTX for AMD GPUs; every block needs a replacement."""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.hazards.common import FAMILY, HIP_GUIDE, LAYER, PTX_ISA
from cuda2rocm.hazards.context import Hit, Source
from cuda2rocm.hazards.ptx import asm_statement, rewrite, triaged_blocks
from cuda2rocm.model import Confidence, Edit, Severity
from cuda2rocm.rules import rule

_WHY = ("Inline PTX is NVIDIA's virtual ISA: the AMD compiler cannot assemble it, so the file does not compile "
        "for ROCm until every `asm` block is replaced (AMD GCN/CDNA assembly is a different ISA).")


@rule(
    "C2R-K301", "Inline PTX instruction with a HIP/clang replacement",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.HIGH, layer=LAYER,
    what="Triages every instruction of every `asm`/`asm volatile` block; instructions with a known HIP "
         "intrinsic, clang builtin or plain C++ equivalent (prmt, lop3, ld.global.nc, cvt.rn, mov %laneid, "
         "shfl.sync, bfe/bfi, mma.sync, cp.async, ldmatrix, ...) are reported with that replacement.",
    why=_WHY,
    example='__device__ unsigned lane() { unsigned r; asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }\n',
    instead="Use the named replacement, e.g. `__lane_id()` for `mov %laneid`, `__builtin_amdgcn_perm` for `prmt`. "
            "`convert` rewrites the statements whose C++ means exactly the same, with or without `--fix-hazards` "
            "(PTX never compiles for AMD; the finding then drops to info): a lone `red.global.add.u64` becomes "
            "`atomicAdd`, `atom.global.cas.b32` `atomicCAS` with its result assigned, `mov.u32 %laneid` "
            "`__lane_id()`, a global load with a cache hint a plain load, `membar.gl` `__threadfence()`, "
            "`bar.sync 0` `__syncthreads()` (`hazards/data/ptx_rewrites.csv`).\n"
            "__device__ unsigned lane() { return __lane_id(); }\n",
    references=(PTX_ISA, HIP_GUIDE),
    # every hit is an asm block: an identifier token asm, __asm or __asm__ (triaged_blocks -> asm_blocks)
    requires=("asm",),
)
def check_ptx_replaceable(src: Source) -> Iterator[Hit]:
    for i, found in triaged_blocks(src):
        edits = _exact_rewrite(src, i) if len(found) == 1 else ()
        for t in found:
            if t.category == "builtin":
                yield Hit("C2R-K301", i, f"inline PTX '{t.opcode}': use {t.replacement}", edits)


def _exact_rewrite(src: Source, i: int) -> tuple[Edit, ...]:
    """The statement replaced by the C++ that means exactly the same (``data/ptx_rewrites.csv``: a ``red`` as
    HIP's relaxed device-scope atomicAdd, ``membar.gl`` as __threadfence(), ...), or nothing."""
    stmt = asm_statement(src, i)
    cpp = rewrite(stmt) if stmt is not None else None
    return (src.replace_range(i, stmt.close, cpp, "C2R-K301"),) if stmt is not None and cpp is not None else ()


@rule(
    "C2R-K302", "Inline PTX instruction that needs a manual rewrite",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.HIGH, layer=LAYER,
    what="Reports inline PTX instructions with no known HIP/clang equivalent, naming the instruction.",
    why=_WHY,
    example='__device__ void f(float* p) { asm volatile("discard.global.L2 [%0], 128;" :: "l"(p)); }\n',
    instead="Rewrite the block in C++/HIP (or AMD builtins) by hand; keep the CUDA path under "
            "`#ifdef __HIP_PLATFORM_NVIDIA__` if it matters there.\n__device__ void f(float* p) { }\n",
    references=(PTX_ISA,),
    # every hit is an asm block: an identifier token asm, __asm or __asm__ (triaged_blocks -> asm_blocks)
    requires=("asm",),
)
def check_ptx_manual(src: Source) -> Iterator[Hit]:
    for i, found in triaged_blocks(src):
        for t in found:
            if t.category == "manual":
                yield Hit("C2R-K302", i, f"inline PTX '{t.opcode}' has no known HIP equivalent: rewrite by hand")


@rule(
    "C2R-K303", "Inline PTX for NVIDIA-only hardware (wgmma, TMA, mbarrier, setmaxnreg...)",
    family=FAMILY, severity=Severity.CRITICAL, confidence=Confidence.HIGH, layer=LAYER,
    what="Reports inline PTX that drives hardware AMD GPUs do not have: warpgroup MMA, TMA bulk copies, "
         "transaction barriers, tensor memory, register reallocation, programmatic dependent launch.",
    why=_WHY + " There is no instruction-level replacement: the kernel's data movement and MMA pipeline must be "
               "redesigned (MFMA, LDS double buffering), usually by adopting Composable Kernel or rocWMMA.",
    example='__device__ void f() { asm volatile("wgmma.fence.sync.aligned;"); }\n',
    instead="Port the kernel to rocWMMA / MFMA builtins / Composable Kernel.\n__device__ void f() { }\n",
    references=(PTX_ISA, "https://rocm.docs.amd.com/projects/composable_kernel/en/latest/"),
    # every hit is an asm block: an identifier token asm, __asm or __asm__ (triaged_blocks -> asm_blocks)
    requires=("asm",),
)
def check_ptx_hardware(src: Source) -> Iterator[Hit]:
    for i, found in triaged_blocks(src):
        for t in found:
            if t.category == "nvidia-hw":
                yield Hit("C2R-K303", i, f"inline PTX '{t.opcode}' needs NVIDIA-only hardware: {t.replacement}")
