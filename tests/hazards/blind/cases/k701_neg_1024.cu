__global__ void __launch_bounds__(1024) max_ok(float* p) { p[threadIdx.x] = 0.0f; }
void run_ok(float* p) {
  dim3 block(32, 32);
  max_ok<<<1, block>>>(p);
  max_ok<<<2048, 1024>>>(p);
}
