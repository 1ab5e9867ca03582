__global__ void k(float4* out, const float* in, int n) {
  int vec = n / 4;
  int chunks = vec / 32;
  for (int c = 0; c < chunks; ++c) out[c] = make_float4(in[c], in[c], in[c], in[c]);
}
