__device__ float f(float v) { return __shfl_down_sync(__activemask(), v, 1); }
