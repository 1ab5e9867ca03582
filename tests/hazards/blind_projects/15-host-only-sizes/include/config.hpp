#pragma once
#include <cstddef>

namespace cfg {
constexpr int kLaunchThreads = 256;        // threads per block of every kernel
constexpr int kMaxBatch = 2048;            // rows per batch (also the grid size)
constexpr int kStageRows = 256;
constexpr int kStageCols = 512;
// Pinned host staging buffer: 512 KiB.
constexpr size_t kStageBytes = (size_t)kStageRows * kStageCols * sizeof(float);
}  // namespace cfg
