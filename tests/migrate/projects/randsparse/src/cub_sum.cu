#include <cub/cub.cuh>
#include "api.h"
#include "common.cuh"

float device_sum(const std::vector<float>& values) {
  const int n = static_cast<int>(values.size());
  float *d_in = nullptr, *d_out = nullptr;
  RS_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  RS_CHECK(cudaMalloc(&d_out, sizeof(float)));
  RS_CHECK(cudaMemcpy(d_in, values.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  void* temp = nullptr;
  size_t temp_bytes = 0;
  cub::DeviceReduce::Sum(temp, temp_bytes, d_in, d_out, n);
  RS_CHECK(cudaMalloc(&temp, temp_bytes));
  cub::DeviceReduce::Sum(temp, temp_bytes, d_in, d_out, n);
  float sum = 0.0f;
  RS_CHECK(cudaMemcpy(&sum, d_out, sizeof(float), cudaMemcpyDeviceToHost));
  RS_CHECK(cudaFree(temp));
  RS_CHECK(cudaFree(d_in));
  RS_CHECK(cudaFree(d_out));
  return sum;
}
