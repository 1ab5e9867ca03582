#include <cuda_runtime.h>
__global__ void ck(float* p) { p[0] = 0.0f; }
void launch_cluster(float* p) {
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 2;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  cfg.gridDim = dim3(4);
  cfg.blockDim = dim3(128);
  cudaLaunchKernelEx(&cfg, ck, p);
}
