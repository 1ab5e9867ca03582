__device__ unsigned crc32_step(unsigned crc, unsigned char b) {
  crc ^= b;
  for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  return crc ^ 0xffffffff;
}
__global__ void crc_kernel(const unsigned char* d, unsigned* out, int n) {
  unsigned c = 0xffffffff;
  for (int i = 0; i < n; ++i) c = crc32_step(c, d[i]);
  out[0] = c >> 5;
}
