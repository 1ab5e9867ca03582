__global__ void k(float* o, const float* i) { o[threadIdx.x] = __ldcs(&i[threadIdx.x]); }
