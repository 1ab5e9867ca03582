#include <cstdint>
__device__ int wide(bool p) {
  unsigned long long b = __ballot_sync(0xffffffffffffffffULL, p);
  uint64_t m = __activemask();
  auto c = __ballot_sync(0xffffffffffffffffULL, !p);
  return (b | m | c) != 0;
}
