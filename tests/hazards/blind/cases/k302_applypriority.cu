__device__ void prio(float* p) {
  asm volatile("applypriority.global.L2::evict_normal [%0], 128;" :: "l"(p));
}
