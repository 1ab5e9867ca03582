#include <cuda_bf16.h>
__global__ void acc_bf16(__nv_bfloat16* grad, const __nv_bfloat16* g, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&grad[i % 16], g[i]);
}
