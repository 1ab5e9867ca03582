#pragma once
#include <cuda_runtime.h>

template <typename T, int kLanes = 32>
struct WarpAllReduce {
  static constexpr int kWidth = kLanes;
  __device__ static T sum(T v) {
    for (int o = kWidth / 2; o > 0; o >>= 1) v += __shfl_xor_sync(__activemask(), v, o, kWidth);
    return v;
  }
};

template <typename T>
__global__ void normalize_rows(T* x, int cols) {
  T* row = x + (size_t)blockIdx.x * cols;
  T ss = 0;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) ss += row[c] * row[c];
  ss = WarpAllReduce<T>::sum(ss);
  T inv = rsqrt(ss + T(1e-6));
  for (int c = threadIdx.x; c < cols; c += blockDim.x) row[c] *= inv;
}
