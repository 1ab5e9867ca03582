__global__ void host_visible(int* flag, float* sum, float v) {
  atomicAdd_system(flag, 1);
  atomicAdd_system(sum, v);
}
