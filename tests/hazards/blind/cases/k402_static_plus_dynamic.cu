__global__ void mixed(float* p) {
  __shared__ float fixed_part[10240];
  extern __shared__ float dyn_part[];
  fixed_part[threadIdx.x] = p[0];
  dyn_part[threadIdx.x] = fixed_part[threadIdx.x];
  p[0] = dyn_part[1];
}
void run_mixed(float* p) { mixed<<<1, 256, 32 * 1024>>>(p); }
