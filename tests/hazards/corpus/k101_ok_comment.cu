// lane = threadIdx.x & 31 on NVIDIA; we use warpSize
__global__ void k(int* out) {
  const char* s = "threadIdx.x / 32";
  out[threadIdx.x] = threadIdx.x % warpSize + (s[0] == 't');
}
