#include <cutlass/numeric_types.h>

using ElementA = cutlass::float_e4m3_t;
using ElementB = cutlass::half_t;

// dequantizes one row of an fp8 weight matrix
__global__ void dequant_row(const ElementA* w, const float* scale, ElementB* out, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cols) out[c] = ElementB(float(w[c]) * scale[0]);
}
