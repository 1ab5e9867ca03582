// asm volatile("prmt.b32 %0, %1, 0, 0x0123;" : "=r"(r) : "r"(x));
__device__ unsigned f(unsigned x) { return __builtin_bswap32(x); }
