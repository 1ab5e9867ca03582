__device__ float ptx_shfl(float v) {
  float r;
  asm volatile("shfl.sync.bfly.b32 %0, %1, 1, 0x1f, 0xffffffff;" : "=f"(r) : "f"(v));
  return r;
}
