__device__ bool any_neg(float v) { return __ballot_sync(0xFFFFFFFFu, v < 0.0f) != 0; }
