#include <cuda_runtime.h>
bool refresh(cudaGraphExec_t exec, cudaGraph_t g) {
  cudaGraphExecUpdateResultInfo info;
  return cudaGraphExecUpdate(exec, g, &info) == cudaSuccess;
}
