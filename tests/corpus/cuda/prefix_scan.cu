// Work-efficient (Blelloch) exclusive scan of one 1024-element block in shared memory.
#include "common.cuh"

constexpr int N = 1024;

__global__ void scan(const int* in, int* out) {
    __shared__ int s[N];
    int t = threadIdx.x;
    s[2 * t] = in[2 * t];
    s[2 * t + 1] = in[2 * t + 1];
    int offset = 1;
    for (int d = N >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) { int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1; s[b] += s[a]; }
        offset <<= 1;
    }
    if (t == 0) s[N - 1] = 0;
    for (int d = 1; d < N; d <<= 1) {
        offset >>= 1;
        __syncthreads();
        if (t < d) {
            int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
            int tmp = s[a]; s[a] = s[b]; s[b] += tmp;
        }
    }
    __syncthreads();
    out[2 * t] = s[2 * t];
    out[2 * t + 1] = s[2 * t + 1];
}

int main() {
    int h[N], r[N];
    for (int i = 0; i < N; ++i) h[i] = (i * 3) % 11;
    int *in, *out;
    CHECK_CUDA(cudaMalloc(&in, sizeof(h)));
    CHECK_CUDA(cudaMalloc(&out, sizeof(r)));
    CHECK_CUDA(cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice));
    scan<<<1, N / 2>>>(in, out);
    CHECK_CUDA(cudaMemcpy(r, out, sizeof(r), cudaMemcpyDeviceToHost));
    bool ok = true;
    int acc = 0;
    for (int i = 0; i < N; ++i) { ok = ok && r[i] == acc; acc += h[i]; }
    std::printf("total = %d last = %d\n", acc, r[N - 1]);
    cudaFree(in); cudaFree(out);
    return report("prefix_scan", ok);
}
