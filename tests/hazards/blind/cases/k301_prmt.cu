__device__ unsigned swap_bytes(unsigned x) {
  unsigned r;
  asm("prmt.b32 %0, %1, 0, 0x0123;" : "=r"(r) : "r"(x));
  return r;
}
