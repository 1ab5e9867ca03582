// Class 4: portable header pattern: #if defined(__CUDACC__) ... #elif defined(__HIPCC__) ... #endif
#if defined(__CUDACC__)
#include <cuda_runtime.h>
#define GPU_WARP 32
#define GPU_SHFL_DOWN(v, d) __shfl_down_sync(0xffffffffu, (v), (d))
typedef cudaStream_t gpuStream_t;
#elif defined(__HIPCC__)
#include <hip/hip_runtime.h>
#define GPU_WARP 64
#define GPU_SHFL_DOWN(v, d) __shfl_down((v), (d))
typedef hipStream_t gpuStream_t;
#else
#error "compile with nvcc or hipcc"
#endif

__global__ void warp_sums(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int d = GPU_WARP / 2; d > 0; d >>= 1) v += GPU_SHFL_DOWN(v, d);
  if ((threadIdx.x % GPU_WARP) == 0) out[i / GPU_WARP] = v;
}

void launch_warp_sums(const float* in, float* out, int n, gpuStream_t s) {
  warp_sums<<<(n + 255) / 256, 256, 0, s>>>(in, out, n);
}
