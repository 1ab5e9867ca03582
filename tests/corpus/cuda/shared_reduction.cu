// Classic shared-memory tree reduction with __syncthreads, two passes.
#include "common.cuh"

template <int BLOCK>
__global__ void reduce(const double* in, double* out, int n) {
    __shared__ double s[BLOCK];
    int t = threadIdx.x, i = blockIdx.x * BLOCK * 2 + t;
    double v = 0.0;
    if (i < n) v += in[i];
    if (i + BLOCK < n) v += in[i + BLOCK];
    s[t] = v;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

int main() {
    const int n = 1 << 20, block = 256, grid = (n + 2 * block - 1) / (2 * block);
    double* h = new double[n];
    for (int i = 0; i < n; ++i) h[i] = 1.0 / (1 + i % 7);
    double *in, *mid, *out;
    CHECK_CUDA(cudaMalloc(&in, n * sizeof(double)));
    CHECK_CUDA(cudaMalloc(&mid, grid * sizeof(double)));
    CHECK_CUDA(cudaMalloc(&out, sizeof(double)));
    CHECK_CUDA(cudaMemcpy(in, h, n * sizeof(double), cudaMemcpyHostToDevice));
    reduce<block><<<grid, block>>>(in, mid, n);
    reduce<1024><<<1, 1024>>>(mid, out, grid);
    double got, want = 0;
    CHECK_CUDA(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) want += h[i];
    std::printf("sum = %.6f\n", got);
    delete[] h; cudaFree(in); cudaFree(mid); cudaFree(out);
    return report("shared_reduction", got - want < 1e-6 && want - got < 1e-6);
}
