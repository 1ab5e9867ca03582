// Vector types from a header-only .cuh: float4 loads, dim3, int2 results.
#include "common.cuh"
#include "vec_types.cuh"

__global__ void kernel(const float4* x, const float4* y, int2* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 r = axpy4(2.0f, x[i], y[i]);
    out[i] = make_int2((int)dot4(r, make_float4(1, 1, 1, 1)), i);
}

int main() {
    const int n = 256;
    float4 hx[n], hy[n];
    for (int i = 0; i < n; ++i) { hx[i] = make_float4(i, 1, 2, 3); hy[i] = make_float4(1, 1, 1, 1); }
    float4 *x, *y; int2* out;
    CHECK_CUDA(cudaMalloc(&x, sizeof(hx)));
    CHECK_CUDA(cudaMalloc(&y, sizeof(hy)));
    CHECK_CUDA(cudaMalloc(&out, n * sizeof(int2)));
    CHECK_CUDA(cudaMemcpy(x, hx, sizeof(hx), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(y, hy, sizeof(hy), cudaMemcpyHostToDevice));
    dim3 block(64), grid((n + block.x - 1) / block.x);
    kernel<<<grid, block>>>(x, y, out, n);
    int2 h[n];
    CHECK_CUDA(cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < n; ++i) ok = ok && h[i].x == 2 * i + 16 && h[i].y == i;
    std::printf("out[5] = (%d, %d)\n", h[5].x, h[5].y);
    cudaFree(x); cudaFree(y); cudaFree(out);
    return report("vector_types", ok);
}
