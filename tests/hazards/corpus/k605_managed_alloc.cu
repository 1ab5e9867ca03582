__global__ void scale(float* p, float a) { p[threadIdx.x] *= a; }
int run(int n) {
  float* data = nullptr;
  cudaMallocManaged(&data, n * sizeof(float));
  for (int i = 0; i < n; ++i) data[i] = 1.f;
  scale<<<1, n>>>(data, 2.f);
  cudaDeviceSynchronize();
  return data[0] == 2.f;
}
