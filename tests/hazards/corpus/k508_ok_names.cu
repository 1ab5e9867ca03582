struct texture_info { int width; };
__global__ void blend(const float* texture, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = texture[i] * 0.5f;
}
int tex_width(const texture_info& tex) { return tex.width; }
