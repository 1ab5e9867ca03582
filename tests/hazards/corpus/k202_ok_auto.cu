__device__ int f(bool p) { auto b = __ballot_sync(__activemask(), p); return b != 0; }
