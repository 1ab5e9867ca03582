__device__ int f(bool p) { unsigned long long b = __ballot_sync(__activemask(), p); return b != 0; }
