// Host interface of the device library: plain C++, main.cc never sees CUDA.
#pragma once
#include <vector>

// n uniform floats in [lo, hi) from a seeded cuRAND generator, shifted and scaled on the GPU.
std::vector<float> uniform_between(int n, float lo, float hi, unsigned long long seed);
