struct fragment { float x[8]; };
__device__ void fill_fragment(fragment& f, float v) { for (int i = 0; i < 8; ++i) f.x[i] = v; }
__global__ void k(float* out) {
  fragment f;
  fill_fragment(f, 1.0f);
  out[threadIdx.x] = f.x[0];
}
