#include <cuda_runtime.h>
int cores_per_sm(int major, int minor) {
  struct SMtoCores { int sm; int cores; };
  SMtoCores table[] = {{0x70, 64}, {0x75, 64}, {0x80, 64}, {0x86, 128}, {0x90, 128}, {-1, -1}};
  for (int i = 0; table[i].sm != -1; ++i)
    if (table[i].sm == ((major << 4) + minor)) return table[i].cores;
  return 64;
}
