__global__ void scale(float* p, float a) { p[blockIdx.x * blockDim.x + threadIdx.x] *= a; }
void go_scale(float* p) {
  scale<<<128, 32>>>(p, 2.0f);
  scale<<<128, 96>>>(p, 2.0f);
}
