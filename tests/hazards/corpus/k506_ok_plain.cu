__global__ void k(float* o, const float* __restrict__ i) { o[threadIdx.x] = i[threadIdx.x]; }
