#include <cuda_runtime.h>

constexpr int kBitsPerWord = 32;

// marks the positions of non-zero elements in a bitmap of 32-bit words
__global__ void build_bitmap(const float* x, unsigned int* bitmap, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int word = i / kBitsPerWord;
  int bit = i % kBitsPerWord;
  if (x[i] != 0.f) atomicOr(&bitmap[word], 1u << bit);
}
