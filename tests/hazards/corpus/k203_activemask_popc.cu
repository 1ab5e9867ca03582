__device__ int active_count() { return __popc(__activemask()); }
