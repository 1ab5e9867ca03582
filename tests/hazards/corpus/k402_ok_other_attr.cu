__global__ void k(float* p) { p[0] = 1.0f; }
void setup() { cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, 100000); }
