__global__ void k(float* out) {
  __shared__ float s[64];
  volatile float* vs = s;
  vs[threadIdx.x] = 1.0f;
  out[threadIdx.x] = vs[threadIdx.x];
}
