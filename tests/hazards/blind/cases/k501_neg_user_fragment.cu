struct fragment { float x[8]; };
__device__ void load_matrix_sync(fragment& f, const float* p) { for (int i = 0; i < 8; ++i) f.x[i] = p[i]; }
__global__ void mine(const float* p, float* o) {
  fragment f;
  load_matrix_sync(f, p);
  o[threadIdx.x] = f.x[threadIdx.x % 8];
}
