__global__ void __cluster_dims__(2, 1, 1) clustered(float* p) { p[blockIdx.x] = 1.0f; }
