// Inline PTX (lane id and a 32-bit funnel shift): NVIDIA-only assembly that a port must rewrite.
#include "common.cuh"

__device__ unsigned lane_id() {
    unsigned id;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
    return id;
}

__device__ unsigned rotl(unsigned x, unsigned k) {
    unsigned r;
    asm("shf.l.wrap.b32 %0, %1, %1, %2;" : "=r"(r) : "r"(x), "r"(k));
    return r;
}

__global__ void kernel(unsigned* lanes, unsigned* rot) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    lanes[i] = lane_id();
    rot[i] = rotl(0x80000001u, i % 32);
}

int main() {
    const int n = 128;
    unsigned *lanes, *rot, hl[n], hr[n];
    CHECK_CUDA(cudaMalloc(&lanes, sizeof(hl)));
    CHECK_CUDA(cudaMalloc(&rot, sizeof(hr)));
    kernel<<<2, 64>>>(lanes, rot);
    CHECK_CUDA(cudaMemcpy(hl, lanes, sizeof(hl), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(hr, rot, sizeof(hr), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < n; ++i) {
        unsigned k = i % 32, want = k ? (0x80000001u << k) | (0x80000001u >> (32 - k)) : 0x80000001u;
        ok = ok && hl[i] == (unsigned)(i % 32) && hr[i] == want;
    }
    std::printf("lane[33] = %u rot[1] = %08x\n", hl[33], hr[1]);
    cudaFree(lanes); cudaFree(rot);
    return report("inline_ptx", ok);
}
