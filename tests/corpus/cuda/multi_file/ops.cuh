// Declarations shared by main.cu and ops.cu (separate translation units, host wrappers only).
#pragma once
#include <cuda_runtime.h>

struct Stats { float min, max, mean; };

__host__ __device__ inline float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

cudaError_t normalise(float* d, int n, float lo, float hi, cudaStream_t stream);
Stats stats(const float* host, int n);
