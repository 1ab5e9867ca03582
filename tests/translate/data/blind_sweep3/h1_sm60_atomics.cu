// Class 1: sm_60_atomic_functions.h included for double atomicAdd; nothing else from it used.
#include <cuda_runtime.h>
#include <sm_60_atomic_functions.h>

__global__ void dot(const double* a, const double* b, double* out, int n) {
  __shared__ double part[256];
  double acc = 0.0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    acc += a[i] * b[i];
  part[threadIdx.x] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, part[0]);
}

void run_dot(const double* a, const double* b, double* out, int n) {
  cudaMemset(out, 0, sizeof(double));
  dot<<<64, 256>>>(a, b, out, n);
}
