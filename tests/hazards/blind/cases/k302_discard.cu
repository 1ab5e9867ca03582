__device__ void drop_line(float* p) {
  asm volatile("discard.global.L2 [%0], 128;" :: "l"(p));
}
