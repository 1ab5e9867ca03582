__global__ void __launch_bounds__(2048) too_wide(float* p) { p[threadIdx.x] = 0.0f; }
