__device__ bool all_true(bool p) { return __ballot_sync(__activemask(), p) == 0xffffffff; }
