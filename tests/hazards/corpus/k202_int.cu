__device__ int f(bool p) { int b = __ballot_sync(__activemask(), p); return b; }
