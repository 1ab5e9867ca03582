// cudaMallocManaged is not used here: "cudaMallocManaged" in a string neither.
__global__ void scale(float* p, float a) { p[threadIdx.x] *= a; }
void run(float* host, int n) {
  float* dev = nullptr;
  cudaMalloc(&dev, n * sizeof(float));
  cudaMemcpy(dev, host, n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<1, n>>>(dev, 2.f);
  const char* note = "cudaMallocManaged";
  (void)note;
}
