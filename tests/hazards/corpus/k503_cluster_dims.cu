__global__ void __cluster_dims__(2, 1, 1) k(float* p) { p[0] = 1.0f; }
