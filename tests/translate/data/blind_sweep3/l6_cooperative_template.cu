// Class 6: cooperative launch of a templated kernel on a stream with dynamic shared memory.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

template <typename T>
__global__ void grid_reduce(const T* in, T* partial, T* result, int n) {
  extern __shared__ unsigned char smem_raw[];
  T* smem = reinterpret_cast<T*>(smem_raw);
  cg::grid_group grid = cg::this_grid();
  T acc = T(0);
  for (int i = grid.thread_rank(); i < n; i += grid.size()) acc += in[i];
  smem[threadIdx.x] = acc;
  cg::sync(cg::this_thread_block());
  if (threadIdx.x == 0) {
    T s = T(0);
    for (unsigned k = 0; k < blockDim.x; ++k) s += smem[k];
    partial[blockIdx.x] = s;
  }
  grid.sync();
  if (grid.thread_rank() == 0) {
    T s = T(0);
    for (unsigned b = 0; b < gridDim.x; ++b) s += partial[b];
    *result = s;
  }
}

cudaError_t launch_grid_reduce(const float* in, float* partial, float* result, int n,
                               int blocks, int threads, cudaStream_t stream) {
  void* kargs[4] = {(void*)&in, (void*)&partial, (void*)&result, (void*)&n};
  return cudaLaunchCooperativeKernel((void*)grid_reduce<float>, blocks, threads, kargs,
                                     threads * sizeof(float), stream);
}
