__device__ int votes(bool p) { return __popcll(__ballot_sync(__activemask(), p)); }
