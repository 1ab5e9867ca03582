// Class 4: device-side arch guard with a generic fallback: #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 600
#include <cuda_runtime.h>

__device__ __forceinline__ double atomic_add_double(double* addr, double v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 600
  return atomicAdd(addr, v);
#else
  unsigned long long* a = reinterpret_cast<unsigned long long*>(addr);
  unsigned long long old = *a, assumed;
  do {
    assumed = old;
    old = atomicCAS(a, assumed, __double_as_longlong(v + __longlong_as_double(assumed)));
  } while (assumed != old);
  return __longlong_as_double(old);
#endif
}

__global__ void accumulate(const double* x, int n, double* sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomic_add_double(sum, x[i]);
}

void run_accumulate(const double* x, int n, double* sum) {
  accumulate<<<(n + 255) / 256, 256>>>(x, n, sum);
}
