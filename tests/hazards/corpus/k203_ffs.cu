__device__ int first(bool p) { return __ffs(__ballot_sync(__activemask(), p)) - 1; }
