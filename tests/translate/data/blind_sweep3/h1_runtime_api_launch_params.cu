// Class 1: Visual-Studio-template style includes: cuda_runtime_api.h + device_launch_parameters.h.
#include <cstdio>
#include "cuda_runtime.h"
#include "cuda_runtime_api.h"
#include "device_launch_parameters.h"

__global__ void addKernel(int* c, const int* a, const int* b) {
  int i = threadIdx.x;
  c[i] = a[i] + b[i];
}

cudaError_t addWithCuda(int* c, const int* a, const int* b, unsigned int size) {
  int *da = 0, *db = 0, *dc = 0;
  cudaError_t st = cudaMalloc((void**)&dc, size * sizeof(int));
  if (st != cudaSuccess) return st;
  cudaMalloc((void**)&da, size * sizeof(int));
  cudaMalloc((void**)&db, size * sizeof(int));
  cudaMemcpy(da, a, size * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, size * sizeof(int), cudaMemcpyHostToDevice);
  addKernel<<<1, size>>>(dc, da, db);
  st = cudaDeviceSynchronize();
  cudaMemcpy(c, dc, size * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(da); cudaFree(db); cudaFree(dc);
  return st;
}

int main() {
  const int a[5] = {1, 2, 3, 4, 5}, b[5] = {10, 20, 30, 40, 50};
  int c[5] = {0};
  cudaError_t st = addWithCuda(c, a, b, 5);
  printf("{%d,%d,%d,%d,%d} %s\n", c[0], c[1], c[2], c[3], c[4], cudaGetErrorString(st));
  return 0;
}
