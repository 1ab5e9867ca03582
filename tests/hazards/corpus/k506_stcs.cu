__global__ void k(float4* o, float4 v) { __stcs(&o[threadIdx.x], v); }
