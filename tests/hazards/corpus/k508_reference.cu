texture<float, 1, cudaReadModeElementType> g_tex;
__global__ void legacy(float* out) { out[threadIdx.x] = tex1Dfetch(g_tex, threadIdx.x); }
