struct Cluster { float cx, cy; int count; };
__global__ void assign(const float* x, const float* y, const Cluster* cluster, int* label, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int best = 0;
  for (int c = 1; c < k; ++c)
    if (fabsf(x[i] - cluster[c].cx) < fabsf(x[i] - cluster[best].cx)) best = c;
  label[i] = best;
}
