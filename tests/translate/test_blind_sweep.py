"""Regressions found by the blind sweep (tests/translate/data/blind_sweep): CUDA written from public usage
patterns and the HIP 5.2 headers, not from this project's tables, translated for ROCm 5.2 and compiled with hipcc."""

from __future__ import annotations

from cuda2rocm.model import Translated
from cuda2rocm.translate.api import convert_source
from cuda2rocm.translate.options import Options


def _convert(src: str, **kw: object) -> tuple[str, list[tuple[str, str]]]:
    r = convert_source(src, "t.cu", Options(target_rocm="5.2", **kw))  # type: ignore[arg-type]
    text = r.text if isinstance(r, Translated) else src
    return text, [(f.rule, f.message) for f in r.findings]


def test_block_scoped_atomic_falls_back_to_the_device_scoped_one() -> None:
    """HIP 5.2 has atomicAdd_system but no atomicAdd_block: it was kept silently and did not compile."""
    text, found = _convert("__global__ void k(int* p, unsigned* q) { atomicAdd_block(p, 1); "
                           "atomicCAS_block(q, 0u, 1u); atomicMax_block(p, 3); }\n")
    assert "atomicAdd(p, 1)" in text and "atomicCAS(q, 0u, 1u)" in text and "atomicMax(p, 3)" in text
    assert "_block" not in text
    assert sum(rule == "C2R-A105" for rule, _ in found) == 3


def test_ggl_launch_of_a_macro_parameter_wraps_it_in_hip_kernel_name() -> None:
    """``#define RUN(k, ...) k<<<...>>>(...)`` given ``kern<float, 4>``: the template-id's comma split
    hipLaunchKernelGGL's arguments."""
    text, _ = _convert("#define RUN(kernel, g, b, ...) kernel<<<g, b>>>(__VA_ARGS__)\n"
                       "#define RUN2(g, b) fixed<<<g, b>>>(1)\n", launch_syntax="ggl")
    assert "hipLaunchKernelGGL(HIP_KERNEL_NAME(kernel), dim3(g), dim3(b), 0, 0, __VA_ARGS__)" in text
    assert "hipLaunchKernelGGL(fixed, dim3(g), dim3(b), 0, 0, 1)" in text  # not a parameter: unchanged


def test_cooperative_group_vote_hip52_lacks_is_reported() -> None:
    """``tile.any(p)`` translated silently (a low-severity K705 note only); HIP 5.2's tiles have no any()."""
    src = ("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
           "__global__ void k(int* p) {\n  auto t = cg::tiled_partition<16>(cg::this_thread_block());\n"
           "  if (t.any(p[0] > 0) && t.meta_group_rank() == 0) p[1] = t.thread_rank();\n}\n")
    _, found = _convert(src)
    missing = [m for rule, m in found if rule == "C2R-A103" and "cooperative groups" in m]
    assert len(missing) == 2 and "'t.any()'" in missing[0] and "'t.meta_group_rank()'" in missing[1]
    later = convert_source(src, "t.cu", Options(target_rocm="6.2"))
    assert not [f for f in later.findings if f.rule == "C2R-A103"]  # only the checked release is claimed


def test_pointer_attribute_type_is_memory_type_before_rocm_5_5() -> None:
    """HIP 5.2's hipPointerAttribute_t names the field memoryType: ``attrs.type`` was kept and did not compile."""
    src = ("bool dev(const void* p) { cudaPointerAttributes a, *q = &a; cudaPointerGetAttributes(&a, p);\n"
           "  return a.type == cudaMemoryTypeDevice && q->type == a.type; }\n"
           "struct S { int type; }; int g(S s) { return s.type; }\n")
    text, found = _convert(src)
    assert "a.memoryType == hipMemoryTypeDevice && q->memoryType == a.memoryType" in text
    assert "return s.type;" in text  # not a pointer-attributes variable
    assert sum(rule == "C2R-A105" for rule, _ in found) == 3
    newer = convert_source(src, "t.cu", Options(target_rocm="6.0"))
    assert isinstance(newer, Translated) and "a.type" in newer.text and "memoryType" not in newer.text


def test_callback_convention_macro_is_deleted() -> None:
    """Blind sweep 3: ``static void CUDART_CB done(void*)`` kept CUDART_CB (C2R-A101) and hipcc failed on it;
    it is empty on Linux, so the translation deletes it. A file that defines it keeps it."""
    src = ("#include <cuda_runtime.h>\nstatic void CUDART_CB done(void* p) { ++*static_cast<int*>(p); }\n"
           "void go(cudaStream_t s, int* n) { cudaLaunchHostFunc(s, done, n); }\n")
    text, found = _convert(src)
    assert "static void done(void* p)" in text and "CUDART_CB" not in text
    assert not [m for rule, m in found if "CUDART_CB" in m]
    own = "#ifndef CUDART_CB\n#define CUDART_CB\n#endif\n" + src
    text, _ = _convert(own)
    assert "static void CUDART_CB done" in text
