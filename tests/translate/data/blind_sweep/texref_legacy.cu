// Pattern: pre-CUDA-12 texture references: a file-scope texture<float, 1, cudaReadModeElementType>,
// cudaBindTexture / cudaUnbindTexture over linear memory and tex1Dfetch in the kernel (old public code).
#include <cuda_runtime.h>

texture<float, 1, cudaReadModeElementType> texIn;

__global__ void gather(const int* idx, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch(texIn, idx[i]);
}

int main() {
    float* d; int* idx; float* out;
    cudaMalloc(&d, 4096); cudaMalloc(&idx, 4096); cudaMalloc(&out, 4096);
    size_t offset = 0;
    cudaBindTexture(&offset, texIn, d, 4096);
    gather<<<4, 256>>>(idx, out, 1024);
    cudaUnbindTexture(texIn);
    cudaDeviceSynchronize();
    return 0;
}
