template <int T>
__global__ void exact(float* p) {
  __shared__ float s[T][T];
  s[threadIdx.y][threadIdx.x] = p[0];
  p[1] = s[0][0];
}
void run_exact(float* p) { exact<128><<<1, dim3(16, 16)>>>(p); }
