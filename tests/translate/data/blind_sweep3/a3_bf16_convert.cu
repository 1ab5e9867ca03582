// Class 3: cuda_bf16.h conversions __float2bfloat16 / __bfloat162float (PyTorch-extension style).
#include <cuda_runtime.h>
#include <cuda_bf16.h>

__global__ void cast_to_bf16(const float* in, __nv_bfloat16* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __float2bfloat16(in[i]);
}

__global__ void bf16_scale_accumulate(const __nv_bfloat16* x, float s, float* acc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) acc[i] += s * __bfloat162float(x[i]);
}

void run_bf16(const float* in, __nv_bfloat16* tmp, float* acc, int n, cudaStream_t st) {
  dim3 b(256), g((n + 255) / 256);
  cast_to_bf16<<<g, b, 0, st>>>(in, tmp, n);
  bf16_scale_accumulate<<<g, b, 0, st>>>(tmp, 0.5f, acc, n);
}
