#include <cuda_runtime.h>
cudaArray_t alloc_volume(int w, int h, int d) {
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float4>();
  cudaArray_t arr;
  cudaMalloc3DArray(&arr, &cd, make_cudaExtent(w, h, d));
  return arr;
}
__global__ void sample3d(cudaTextureObject_t vol, float4* out) {
  out[threadIdx.x] = tex3D<float4>(vol, 0.5f, 0.5f, threadIdx.x + 0.5f);
}
