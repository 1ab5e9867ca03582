__global__ void timed(float* p, long long* cycles) {
  long long start = clock64();
  p[threadIdx.x] *= 2.0f;
  cycles[threadIdx.x] = clock64() - start;
}
