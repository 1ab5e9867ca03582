__global__ void k(float* out, const float* in) {
  __shared__ float row[32];
  row[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = row[31 - threadIdx.x];
}
