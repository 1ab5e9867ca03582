__global__ void k(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int col = i % 32;
  int row = i / 32;
  if (row < n) out[row * 32 + col] = in[i];
}
