__global__ void k(char* out) {
  const char* msg = "asm(\"mov.u32 %0, %%laneid;\")";
  out[threadIdx.x] = msg[threadIdx.x];
}
