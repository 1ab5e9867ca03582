#pragma once
#include <cuda_runtime.h>
#include "warp_defs.h"

// ELLPACK matrix, column-major slots: entry k of row r sits at k * rows + r.
struct EllMatrix {
  int rows;
  int width;             // slots per row
  const int* cols;       // -1 marks padding
  const float* vals;
};
