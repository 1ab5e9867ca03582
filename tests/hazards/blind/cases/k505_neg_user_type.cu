struct fp8_e4m3_t { unsigned char bits; };
__global__ void raw(fp8_e4m3_t* q, const unsigned char* b) { q[threadIdx.x].bits = b[threadIdx.x]; }
