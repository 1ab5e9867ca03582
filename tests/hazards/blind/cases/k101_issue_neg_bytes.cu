#include <cstring>
__global__ void pack(unsigned char* dst, const unsigned char* src, int chunks) {
  int off = blockIdx.x * 32;
  for (int b = 0; b < 32; ++b)
    dst[off + b] = src[off + b];
}
void host_copy(char* d, const char* s) { memcpy(d, s, 32); }
