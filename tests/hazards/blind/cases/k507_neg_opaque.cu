#include <cuda_runtime.h>
struct Params { cudaTextureObject_t tex; int n; };
__global__ void use_params(Params p, float* out) {
  out[threadIdx.x] = tex1Dfetch<float>(p.tex, threadIdx.x & (p.n - 1));
}
