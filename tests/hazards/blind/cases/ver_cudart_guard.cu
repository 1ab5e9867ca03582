#include <cuda_runtime.h>
void maybe_graphs(cudaStream_t s) {
#if CUDART_VERSION >= 10000
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
#endif
}
