__device__ unsigned field(unsigned x) {
  unsigned r;
  asm("bfe.u32 %0, %1, 4, 8;" : "=r"(r) : "r"(x));
  return r;
}
