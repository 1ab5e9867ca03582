#include <cuda_runtime.h>
__global__ void step(float* p) { p[threadIdx.x] += 1.0f; }
void build(cudaStream_t s, float* p) {
  cudaGraph_t g;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  step<<<1, 256, 0, s>>>(p);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(g);
}
