__device__ int f(bool p) { unsigned n = __popcll(__ballot_sync(__activemask(), p)); return n; }
