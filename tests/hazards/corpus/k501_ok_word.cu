// we removed the wmma path; see docs
__global__ void k(float* p) { p[0] = 0.0f; }
