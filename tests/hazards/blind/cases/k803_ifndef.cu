__host__ __device__ void host_only_log(int v) {
#ifndef __CUDA_ARCH__
  (void)v;
#endif
}
