#include <cuda_runtime.h>
bool capturing(cudaStream_t s) {
  cudaStreamCaptureStatus st;
  cudaStreamIsCapturing(s, &st);
  return st == cudaStreamCaptureStatusActive;
}
