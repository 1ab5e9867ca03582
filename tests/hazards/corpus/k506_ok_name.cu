__global__ void k(float* o) { int __ldg_count = 0; o[0] = __ldg_count; }
