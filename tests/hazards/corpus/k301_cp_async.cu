__device__ void copy16(void* smem, const void* g) {
  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(s), "l"(g));
  asm volatile("cp.async.commit_group;\n" ::);
}
