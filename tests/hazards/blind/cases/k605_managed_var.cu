__managed__ int total;
__global__ void bump() { atomicAdd(&total, 1); }
