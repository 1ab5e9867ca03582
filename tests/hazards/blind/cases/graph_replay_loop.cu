#include <cuda_runtime.h>
__global__ void tick(float* p) { p[threadIdx.x] += 1.0f; }
void replay(cudaStream_t s, float* p, int iters) {
  cudaGraph_t graph;
  cudaGraphExec_t instance;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  for (int k = 0; k < 4; ++k) tick<<<1, 64, 0, s>>>(p);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&instance, graph, 0);
  for (int i = 0; i < iters; ++i) cudaGraphLaunch(instance, s);
  cudaGraphExecDestroy(instance);
  cudaGraphDestroy(graph);
}
