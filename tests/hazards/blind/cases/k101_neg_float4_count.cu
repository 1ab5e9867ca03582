__global__ void vec_copy(float4* dst, const float4* src, int bytes) {
  int n4 = bytes / 32;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4 * 2) dst[i] = src[i];
}
