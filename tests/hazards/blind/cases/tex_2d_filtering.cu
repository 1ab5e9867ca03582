#include <cuda_runtime.h>
__global__ void resample(cudaTextureObject_t img, float* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float u = (x + 0.5f) / w, v = (y + 0.5f) / h;
  out[y * w + x] = tex2D<float>(img, u, v);
}
cudaTextureDesc linear_filter() {
  cudaTextureDesc td = {};
  td.filterMode = cudaFilterModeLinear;
  td.normalizedCoords = 1;
  td.addressMode[0] = cudaAddressModeClamp;
  return td;
}
