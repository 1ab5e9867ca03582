#include <cstring>
void copy(float* a, const float* b) { memcpy(a, b, 16); cudaMemcpyAsync(a, b, 16, cudaMemcpyDeviceToDevice, 0); }
