constexpr int kThreads = 1536;
__global__ void __launch_bounds__(kThreads) big_block(float* p) { p[threadIdx.x] = 1.0f; }
