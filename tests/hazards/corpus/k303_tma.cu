__device__ void tma(void* smem, const void* desc, int x, unsigned long long* bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %2}], [%3];"
               :: "r"(0), "l"(desc), "r"(x), "r"(0) : "memory");
}
