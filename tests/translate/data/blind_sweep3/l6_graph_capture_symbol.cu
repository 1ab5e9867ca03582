// Class 6: stream capture that records cudaMemcpyToSymbolAsync, a kernel and a host callback.
#include <cstdio>
#include <cuda_runtime.h>

__constant__ float c_scale[2];

__global__ void affine(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = c_scale[0] * v[i] + c_scale[1];
}

static void CUDART_CB on_done(void* user) { ++*static_cast<int*>(user); }

int main() {
  const int n = 2048;
  static float h_scale[2] = {2.0f, 1.0f};
  int replays = 0;
  float* d; cudaMalloc(&d, n * sizeof(float));
  cudaStream_t s; cudaStreamCreate(&s);
  cudaGraph_t graph; cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  cudaMemcpyToSymbolAsync(c_scale, h_scale, sizeof(h_scale), 0, cudaMemcpyHostToDevice, s);
  affine<<<(n + 255) / 256, 256, 0, s>>>(d, n);
  cudaLaunchHostFunc(s, on_done, &replays);
  cudaStreamEndCapture(s, &graph);
  cudaStreamCaptureStatus cs;
  cudaStreamIsCapturing(s, &cs);
  cudaGraphInstantiateWithFlags(&exec, graph, 0);
  cudaGraphLaunch(exec, s);
  cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  printf("replays %d, capturing %d\n", replays, (int)(cs == cudaStreamCaptureStatusActive));
  cudaGraphExecDestroy(exec); cudaGraphDestroy(graph); cudaStreamDestroy(s); cudaFree(d);
  return 0;
}
