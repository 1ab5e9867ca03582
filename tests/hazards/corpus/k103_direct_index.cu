__global__ void k(int* out) {
  __shared__ int counts[32];
  counts[threadIdx.x / 32] = __popcll(__ballot_sync(__activemask(), out[threadIdx.x] > 0));
}
