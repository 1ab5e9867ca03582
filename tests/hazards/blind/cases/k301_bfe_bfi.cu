__device__ unsigned field(unsigned x, unsigned y) {
  unsigned a, b;
  asm("bfe.u32 %0, %1, 4, 8;" : "=r"(a) : "r"(x));
  asm("bfi.b32 %0, %1, %2, 0, 4;" : "=r"(b) : "r"(a), "r"(y));
  return b;
}
