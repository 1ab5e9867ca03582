__device__ unsigned two_ops(unsigned x) {
  unsigned r;
  asm volatile(
      "{\n\t"
      "prmt.b32 %0, %1, 0, 0x3210;\n\t"
      "}"
      : "=r"(r) : "r"(x));
  return r;
}
