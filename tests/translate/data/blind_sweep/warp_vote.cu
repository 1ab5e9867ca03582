// Pattern: warp votes and masks: __ballot_sync, __activemask, __any_sync / __all_sync, __popc of the
// ballot for stream compaction, __syncwarp and __match_any_sync-free lane-mask arithmetic.
#include <cuda_runtime.h>

__global__ void compact(const int* in, int* out, int* count, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    bool keep = i < n && in[i] > 0;
    unsigned mask = __ballot_sync(0xffffffff, keep);
    unsigned active = __activemask();
    int prefix = __popc(mask & ((1u << lane) - 1));
    int base = 0;
    if (lane == 0) base = atomicAdd(count, __popc(mask));
    base = __shfl_sync(active, base, 0);
    if (keep) out[base + prefix] = in[i];
    __syncwarp();
    if (__all_sync(0xffffffff, keep) && lane == 0) atomicAdd(count, 0);
    if (__any_sync(0xffffffff, !keep) && lane == 1) atomicAdd(count, 0);
}

int main() {
    int *in, *out, *count;
    cudaMalloc(&in, 1024 * sizeof(int));
    cudaMalloc(&out, 1024 * sizeof(int));
    cudaMalloc(&count, sizeof(int));
    compact<<<4, 256>>>(in, out, count, 1024);
    cudaDeviceSynchronize();
    return 0;
}
