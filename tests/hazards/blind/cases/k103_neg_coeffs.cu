__constant__ float taps[32];
__global__ void fir(const float* x, float* y, int n) {
  __shared__ float coeffs[32];
  int k = threadIdx.x;
  if (k < 32) coeffs[k] = taps[k];
  __syncthreads();
  float acc = 0.0f;
  for (int j = 0; j < 32; ++j) acc += coeffs[j] * x[blockIdx.x + j];
  y[blockIdx.x] = acc;
}
