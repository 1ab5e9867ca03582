// Device properties, including sharedMemPerBlockOptin (absent from hipDeviceProp_t before ROCm 6.0),
// and opting a kernel into more dynamic shared memory with cudaFuncSetAttribute.
#include "common.cuh"

__global__ void big_shared(int* out) {
    extern __shared__ int s[];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) out[0] = s[blockDim.x - 1];
}

int main() {
    int count = 0;
    CHECK_CUDA(cudaGetDeviceCount(&count));
    cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    size_t optin = prop.sharedMemPerBlockOptin;
    size_t want = optin > 64 * 1024 ? 64 * 1024 : prop.sharedMemPerBlock;
    CHECK_CUDA(cudaFuncSetAttribute(big_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)want));
    int* out;
    CHECK_CUDA(cudaMalloc(&out, sizeof(int)));
    big_shared<<<1, 256, want>>>(out);
    int got = 0;
    CHECK_CUDA(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    std::printf("devices >= 1: %s, warp size known: %s, opt-in >= default: %s\n", count >= 1 ? "yes" : "no",
                prop.warpSize > 0 ? "yes" : "no", optin >= prop.sharedMemPerBlock ? "yes" : "no");
    cudaFree(out);
    return report("device_query", got == 255 && count >= 1);
}
