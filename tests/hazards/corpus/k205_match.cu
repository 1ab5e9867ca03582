__device__ unsigned long long peers(int key) { return __match_any_sync(__activemask(), key); }
