__managed__ int counter;
__global__ void bump() { atomicAdd(&counter, 1); }
