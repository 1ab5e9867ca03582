__global__ void stream(float4* o, const float4* i) {
  float4 v = __ldcs(&i[threadIdx.x]);
  __stcs(&o[threadIdx.x], v);
}
