__global__ void k(float* p) { p[threadIdx.x] = 0.0f; }
void run(float* p) { dim3 block(64, 32); k<<<1, block>>>(p); }
