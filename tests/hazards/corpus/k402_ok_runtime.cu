__global__ void k(float* p) { extern __shared__ float s[]; s[threadIdx.x] = p[0]; }
void run(float* p, int n) { k<<<1, 256, n * sizeof(float)>>>(p); }
