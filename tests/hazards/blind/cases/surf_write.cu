#include <cuda_runtime.h>
__global__ void fill_surface(cudaSurfaceObject_t s, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  surf2Dwrite(1.0f, s, x * sizeof(float), y);
  float back;
  surf2Dread(&back, s, x * (int)sizeof(float), y);
}
cudaSurfaceObject_t make_surface(cudaArray_t a) {
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaSurfaceObject_t s = 0;
  cudaCreateSurfaceObject(&s, &r);
  return s;
}
