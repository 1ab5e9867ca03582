__global__ void vote(int* out) {
  out[threadIdx.x] = __all_sync(0xffffffffffffffffULL, threadIdx.x > 3);
}
void launch_vote(int* out, int n) {
  dim3 block(n * 32);
  vote<<<1, block>>>(out);
}
