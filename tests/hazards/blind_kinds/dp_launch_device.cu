#include <cuda_runtime.h>

__global__ void scale(float* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= 2.f;
}

struct ScaleArgs { float* data; int n; };

// low-level device runtime launch, as emitted for <<<>>> inside a kernel
__global__ void launcher(float* data, int n) {
  if (threadIdx.x != 0) return;
  void* buf = cudaGetParameterBuffer(alignof(ScaleArgs), sizeof(ScaleArgs));
  if (buf == nullptr) return;
  ScaleArgs* args = static_cast<ScaleArgs*>(buf);
  args->data = data;
  args->n = n;
  cudaLaunchDevice((void*)scale, buf, dim3((n + 127) / 128), dim3(128), 0, 0);
}
