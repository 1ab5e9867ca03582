// The library's host interface (plain C++: main.cpp never sees CUDA).
#pragma once
#include <vector>

// n uniform floats in [0, scale) from a seeded generator.
std::vector<float> random_scaled(int n, float scale, unsigned long long seed);
// CSR row pointers of a COO matrix with the given (sorted) row indices.
std::vector<int> coo_rows_to_csr(const std::vector<int>& rows, int m);
#ifdef RS_WITH_CUB
// Sum of the values on the device.
float device_sum(const std::vector<float>& values);
#endif
