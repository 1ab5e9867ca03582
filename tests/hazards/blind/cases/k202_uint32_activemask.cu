#include <cstdint>
__device__ int active_lanes() {
  uint32_t m = __activemask();
  return m != 0;
}
