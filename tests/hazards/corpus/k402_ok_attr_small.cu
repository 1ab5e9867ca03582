__global__ void k(float* p) { extern __shared__ float s[]; s[threadIdx.x] = p[0]; }
void setup() { cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 48 * 1024); }
