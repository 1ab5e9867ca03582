#pragma once
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// Width of the software thread groups that each own one segment.
constexpr int kTileSize = 32;
constexpr int kBlockThreads = 256;
constexpr int kTilesPerBlock = kBlockThreads / kTileSize;
