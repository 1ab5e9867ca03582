__global__ void two_buffers(const float* in, float* out) {
  __shared__ float bufA[10240];
  __shared__ float bufB[10240];
  bufA[threadIdx.x] = in[threadIdx.x];
  bufB[threadIdx.x] = in[threadIdx.x] * 2.0f;
  __syncthreads();
  out[threadIdx.x] = bufA[threadIdx.x] + bufB[threadIdx.x];
}
