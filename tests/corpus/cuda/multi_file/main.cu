// Entry point of a two-file program: calls the wrappers declared in ops.cuh.
#include "../common.cuh"
#include "ops.cuh"

int main() {
    const int n = 1000;
    float h[n];
    for (int i = 0; i < n; ++i) h[i] = (float)(i % 50) - 10.0f;
    float* d;
    CHECK_CUDA(cudaMalloc(&d, sizeof(h)));
    CHECK_CUDA(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice));
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreate(&s));
    CHECK_CUDA(normalise(d, n, 0.0f, 20.0f, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    Stats st = stats(h, n);
    std::printf("min %.2f max %.2f mean %.4f\n", st.min, st.max, st.mean);
    cudaStreamDestroy(s); cudaFree(d);
    return report("multi_file", st.min == 0.0f && st.max == 1.0f);
}
