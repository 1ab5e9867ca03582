// Streaming dequantisation of int8 KV-cache blocks.
#include <cuda_runtime.h>
#include <stdint.h>

#include "fused_ops.h"

__device__ __forceinline__ float load_streaming(const float* ptr) {
  float v;
  asm volatile("ld.global.cs.f32 %0, [%1];" : "=f"(v) : "l"(ptr));
  return v;
}

__global__ void dequant_kv_kernel(const int8_t* __restrict__ q, const float* __restrict__ scales,
                                  float* __restrict__ out, int block_elems, int n, int* warps_done) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = static_cast<float>(q[i]) * load_streaming(scales + i / block_elems);
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  if (lane == 0 && warps_done != nullptr) atomicAdd(warps_done, 1);
}

void launch_dequant_kv(const int8_t* q, const float* scales, float* out, int block_elems, int n,
                       cudaStream_t stream) {
  dequant_kv_kernel<<<(n + 255) / 256, 256, 0, stream>>>(q, scales, out, block_elems, n, nullptr);
}
