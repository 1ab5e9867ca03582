#include <cstdint>
__device__ int f(bool p) { uint32_t b = __ballot_sync(__activemask(), p); return b & 1; }
