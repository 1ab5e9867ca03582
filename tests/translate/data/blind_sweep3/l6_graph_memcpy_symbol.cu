// Class 6: explicit graph: memcpy-to-symbol node (__constant__ coefficients) -> kernel node.
#include <cstdio>
#include <cuda_runtime.h>

__constant__ float c_coef[4];

__global__ void poly(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = ((c_coef[3] * x[i] + c_coef[2]) * x[i] + c_coef[1]) * x[i] + c_coef[0];
}

int main() {
  const int n = 1024;
  float h_coef[4] = {1.0f, 0.5f, 0.25f, 0.125f};
  float *x, *y; cudaMalloc(&x, n * sizeof(float)); cudaMalloc(&y, n * sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  cudaGraph_t g; cudaGraphCreate(&g, 0);
  cudaGraphNode_t copy_node, kernel_node;
  cudaGraphAddMemcpyNodeToSymbol(&copy_node, g, nullptr, 0, c_coef, h_coef, sizeof(h_coef), 0,
                                 cudaMemcpyHostToDevice);
  int nn = n;
  void* args[] = {&x, &y, &nn};
  cudaKernelNodeParams kp = {};
  kp.func = (void*)poly;
  kp.gridDim = dim3((n + 255) / 256); kp.blockDim = dim3(256);
  kp.sharedMemBytes = 0; kp.kernelParams = args; kp.extra = nullptr;
  cudaGraphAddKernelNode(&kernel_node, g, &copy_node, 1, &kp);
  cudaGraphExec_t ge; cudaGraphInstantiateWithFlags(&ge, g, 0);
  cudaGraphLaunch(ge, 0);
  cudaDeviceSynchronize();
  float h = 0; cudaMemcpy(&h, y, sizeof(float), cudaMemcpyDeviceToHost);
  printf("y[0] = %f\n", h);
  cudaGraphExecDestroy(ge); cudaGraphDestroy(g); cudaFree(x); cudaFree(y);
  return 0;
}
