// Class 6: CUDA graph from stream capture (memset + two kernels), instantiated and replayed.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void add_one(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += 1.0f;
}

__global__ void square(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= v[i];
}

int main() {
  const int n = 1 << 14;
  float* d; cudaMalloc(&d, n * sizeof(float));
  cudaStream_t s; cudaStreamCreate(&s);
  cudaGraph_t graph; cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(d, 0, n * sizeof(float), s);
  add_one<<<(n + 255) / 256, 256, 0, s>>>(d, n);
  square<<<(n + 255) / 256, 256, 0, s>>>(d, n);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiateWithFlags(&exec, graph, 0);
  for (int it = 0; it < 5; ++it) cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  float h = 0; cudaMemcpy(&h, d, sizeof(float), cudaMemcpyDeviceToHost);
  printf("v[0] = %f\n", h);
  cudaGraphExecDestroy(exec); cudaGraphDestroy(graph);
  cudaStreamDestroy(s); cudaFree(d);
  return 0;
}
