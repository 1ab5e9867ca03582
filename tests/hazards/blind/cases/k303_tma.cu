__device__ void tma_load(void* smem, const void* tmap, unsigned bar, int x, int y) {
  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];"
               :: "r"(s), "l"(tmap), "r"(bar), "r"(x), "r"(y) : "memory");
}
