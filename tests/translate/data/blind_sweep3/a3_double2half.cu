// Class 3: __double2half (direct double -> half rounding), added to HIP after ROCm 5.2.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

__global__ void to_half(const double* in, __half* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __double2half(in[i]);
}

__global__ void back_to_float(const __half* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __half2float(in[i]);
}

void convert(const double* d, __half* h, float* f, int n, cudaStream_t s) {
  int blocks = (n + 255) / 256;
  to_half<<<blocks, 256, 0, s>>>(d, h, n);
  back_to_float<<<blocks, 256, 0, s>>>(h, f, n);
}
