#include <cuda_runtime.h>
__global__ void k(float* out, cudaTextureObject_t tex, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(tex, i + 0.5f, 0.5f) * 2.0f;
}
void keep(cudaTextureObject_t* slot, cudaTextureObject_t t) { *slot = t; }
