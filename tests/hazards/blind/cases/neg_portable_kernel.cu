#include <cuda_runtime.h>
__device__ float reduce_portable(float v) {
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(__activemask(), v, o);
  return v;
}
__global__ void portable_sum(const float* in, float* out, int n) {
  __shared__ float partial[1024 / 32];
  int lane = threadIdx.x % warpSize;
  int wid = threadIdx.x / warpSize;
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
  v = reduce_portable(v);
  if (lane == 0) partial[wid] = v;
  __syncthreads();
  if (wid == 0) {
    v = lane < (int)(blockDim.x / warpSize) ? partial[lane] : 0.0f;
    v = reduce_portable(v);
    if (lane == 0) atomicAdd(out, v);
  }
}
void run_portable(const float* in, float* out, int n) { portable_sum<<<256, 256>>>(in, out, n); }
