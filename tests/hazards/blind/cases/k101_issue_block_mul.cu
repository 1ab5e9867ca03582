constexpr int kWarps = 4;
__global__ void __launch_bounds__(kWarps * 32) red(float* out, const float* in) {
  float v = in[threadIdx.x];
  v += __shfl_down_sync(0xffffffffffffffffULL, v, 1);
  out[threadIdx.x] = v;
}
void run(float* out, const float* in, int warps) {
  red<<<1, warps * 32>>>(out, in);
}
