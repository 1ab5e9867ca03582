__device__ unsigned long long f(int key) { return __match_any_sync(0xffffffff, key); }
