__global__ void k(__nv_fp8_e5m2* q, const float* x) { q[0] = __nv_fp8_e5m2(x[0]); }
