__device__ unsigned f(unsigned a) {
  unsigned r;
  asm("{\n .reg .u32 t;\n prmt.b32 t, %1, 0, 0x3210;\n dp4a.u32.u32 %0, t, %1, 0;\n}" : "=r"(r) : "r"(a));
  return r;
}
