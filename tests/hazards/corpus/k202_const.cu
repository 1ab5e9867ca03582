__device__ int f(bool p) { const unsigned m = __ballot_sync(__activemask(), p) & 0x0f; return m; }
