__device__ void cp16(void* smem, const void* g) {
  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(s), "l"(g));
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.wait_group 0;");
}
