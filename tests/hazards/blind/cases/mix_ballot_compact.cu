__global__ void compact(const int* in, int* out, int* count) {
  int lane = threadIdx.x & (warpSize - 1);
  bool keep = in[blockIdx.x * blockDim.x + threadIdx.x] > 0;
  unsigned ballot = __ballot_sync(0xffffffff, keep);
  int rank = __popc(ballot & ((1u << lane) - 1));
  int total = __popc(ballot);
  int base = 0;
  if (lane == 0) base = atomicAdd(count, total);
  base = __shfl_sync(0xffffffff, base, 0);
  if (keep) out[base + rank] = in[blockIdx.x * blockDim.x + threadIdx.x];
}
