#pragma once
#include <cstddef>

// Forward attention tile sizes (fp32 reference path).
constexpr int kBlockM = 128;   // query rows per block
constexpr int kBlockN = 128;   // key/value rows per iteration
constexpr int kHeadDim = 128;
constexpr int kThreads = kBlockM;  // one query row per thread

// Q tile + K tile + V tile, all kept in dynamic shared memory.
constexpr size_t kSmemBytes =
    (size_t)(kBlockM + 2 * kBlockN) * kHeadDim * sizeof(float);
