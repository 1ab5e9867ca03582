__global__ void readonly(float* o, const float* __restrict__ i) {
  o[threadIdx.x] = __ldg(&i[threadIdx.x]);
  o[threadIdx.x] += __ldg(i + 1);
}
