#pragma once
#include <cuda_runtime.h>
#include <stdint.h>

int preferred_block_size(int device);
void launch_rms_norm(const float* x, const float* weight, float* y, int rows, int cols, float eps,
                     cudaStream_t stream);
void launch_count_positive(const float* logits, int n, int* count, cudaStream_t stream);
void launch_transpose(const float* in, float* out, int n, cudaStream_t stream);
void launch_dequant_kv(const int8_t* q, const float* scales, float* out, int block_elems, int n,
                       cudaStream_t stream);
