// Newer warp primitives: __activemask, __syncwarp and __match_any_sync (HIP gained them in 6.2/7.0).
#include "common.cuh"

__global__ void groups(const int* key, int* peers, unsigned* active) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned mask = __activemask();
    unsigned same = __match_any_sync(mask, key[i]);
    __syncwarp(mask);
    peers[i] = __popc(same);
    if (threadIdx.x % 32 == 0) active[i / 32] = mask;
}

int main() {
    const int n = 256;
    int hk[n], hp[n];
    unsigned ha[n / 32];
    for (int i = 0; i < n; ++i) hk[i] = i % 4;
    int *key, *peers; unsigned* active;
    CHECK_CUDA(cudaMalloc(&key, sizeof(hk)));
    CHECK_CUDA(cudaMalloc(&peers, sizeof(hp)));
    CHECK_CUDA(cudaMalloc(&active, sizeof(ha)));
    CHECK_CUDA(cudaMemcpy(key, hk, sizeof(hk), cudaMemcpyHostToDevice));
    groups<<<n / 128, 128>>>(key, peers, active);
    CHECK_CUDA(cudaMemcpy(hp, peers, sizeof(hp), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(ha, active, sizeof(ha), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < n; ++i) ok = ok && hp[i] == 8;
    for (int w = 0; w < n / 32; ++w) ok = ok && ha[w] == 0xffffffffu;
    std::printf("peers[0] = %d active[0] = %08x\n", hp[0], ha[0]);
    cudaFree(key); cudaFree(peers); cudaFree(active);
    return report("warp_sync_primitives", ok);
}
