#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>

namespace libgemm {

// C = A * B for row-major bf16 matrices with fp32 accumulation.
cublasStatus_t gemm_bf16(cublasHandle_t handle, const void* a, const void* b, void* c, int m, int n, int k);

// Sorts scores in descending order and returns the first k indices.
void topk(float* scores, int* indices, int n, cudaStream_t stream);

// Single-query attention over a paged KV cache.
cudaError_t decode_attention(const float* q, const float* k, const float* v, float* out, int heads,
                             int seq_len, cudaStream_t stream);

// Sums a buffer across every rank of the tensor-parallel group.
int allreduce_sum(float* buffer, size_t count, int rank, int world_size, cudaStream_t stream);

}  // namespace libgemm
