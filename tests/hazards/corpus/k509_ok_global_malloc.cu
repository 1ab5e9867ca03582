#include <cstdlib>
__global__ void scratch(float** out) {
  float* buf = static_cast<float*>(malloc(64 * sizeof(float)));
  out[blockIdx.x] = buf;
  free(buf);
}
