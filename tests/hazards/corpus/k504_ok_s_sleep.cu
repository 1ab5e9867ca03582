__device__ void backoff() { __builtin_amdgcn_s_sleep(2); }
