#include <cuda_runtime.h>

constexpr int kSlots = 4608;

// byte buffer reinterpreted as double2 slots
__global__ void stage_pairs(const double2* in, double2* out) {
  __shared__ __align__(16) unsigned char raw[kSlots * sizeof(double2)];
  double2* slots = reinterpret_cast<double2*>(raw);
  for (int i = threadIdx.x; i < kSlots; i += blockDim.x) slots[i] = in[blockIdx.x * kSlots + i];
  __syncthreads();
  for (int i = threadIdx.x; i < kSlots; i += blockDim.x)
    out[blockIdx.x * kSlots + i] = slots[kSlots - 1 - i];
}
