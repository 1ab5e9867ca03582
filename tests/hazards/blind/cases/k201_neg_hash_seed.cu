__device__ unsigned hash32(unsigned x) {
  unsigned h = 0xffffffff;
  h ^= x;
  h *= 16777619u;
  return h & 0xffffffff;
}
