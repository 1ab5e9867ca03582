__global__ void sw(float* s) {
  s[threadIdx.x] *= 2.0f;
  __syncwarp(0xffffffff);
  s[threadIdx.x] += s[threadIdx.x ^ 1];
}
