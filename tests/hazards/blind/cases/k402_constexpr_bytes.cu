#include <cuda_runtime.h>
constexpr int kStages = 3;
constexpr int kBlockM = 128;
constexpr int kBlockK = 64;
constexpr size_t kSmemBytes = kStages * (kBlockM * kBlockK) * sizeof(float);
__global__ void gemm(float* p) { extern __shared__ float sm[]; sm[threadIdx.x] = p[0]; p[0] = sm[1]; }
void launch_gemm(float* p) {
  cudaFuncSetAttribute(gemm, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
  gemm<<<64, 256, kSmemBytes>>>(p);
}
