__global__ void dyn(float* p) { extern __shared__ float s[]; s[threadIdx.x] = p[0]; p[1] = s[0]; }
void run_dyn(float* p) { dyn<<<1, 256, 96 * 1024>>>(p); }
