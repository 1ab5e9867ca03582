#include <cuda_runtime.h>
__global__ void node_k(float* p) { p[0] = 1.0f; }
void explicit_graph(float* p, cudaStream_t s) {
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaKernelNodeParams kp = {};
  void* args[] = {&p};
  kp.func = (void*)node_k;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = args;
  cudaGraphNode_t n;
  cudaGraphAddKernelNode(&n, g, nullptr, 0, &kp);
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, nullptr, nullptr, 0);
  cudaGraphLaunch(e, s);
}
