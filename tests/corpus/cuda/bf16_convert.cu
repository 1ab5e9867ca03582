// bfloat16: __nv_bfloat16 round trips and bf16 rounding of fp32 values.
#include "common.cuh"
#include <cuda_bf16.h>

__global__ void round_trip(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat16 b = __float2bfloat16(in[i]);
    out[i] = __bfloat162float(b);
}

int main() {
    const int n = 256;
    float hi[n], ho[n];
    for (int i = 0; i < n; ++i) hi[i] = 1.0f + i / 256.0f;  // needs 8 mantissa bits: bf16 keeps 7
    float *in, *out;
    CHECK_CUDA(cudaMalloc(&in, sizeof(hi)));
    CHECK_CUDA(cudaMalloc(&out, sizeof(ho)));
    CHECK_CUDA(cudaMemcpy(in, hi, sizeof(hi), cudaMemcpyHostToDevice));
    round_trip<<<2, 128>>>(in, out, n);
    CHECK_CUDA(cudaMemcpy(ho, out, sizeof(ho), cudaMemcpyDeviceToHost));
    int exact = 0;
    float max_err = 0;
    for (int i = 0; i < n; ++i) {
        exact += ho[i] == hi[i];
        float e = ho[i] > hi[i] ? ho[i] - hi[i] : hi[i] - ho[i];
        max_err = e > max_err ? e : max_err;
    }
    std::printf("exact %d of %d, max error %.6f\n", exact, n, max_err);
    cudaFree(in); cudaFree(out);
    return report("bf16_convert", exact == 128 && max_err <= 1.0f / 256.0f);
}
