__device__ int votes(bool p) { return __popc(__ballot_sync(__activemask(), p)); }
