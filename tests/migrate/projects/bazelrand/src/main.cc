#include <cstdio>
#include <cstring>

#include "src/fill.h"

int main(int argc, char** argv) {
  const bool check = argc > 1 && std::strcmp(argv[1], "--check") == 0;
  std::vector<float> v = uniform_between(1 << 16, -1.0f, 3.0f, 1234ULL);
  double sum = 0;
  for (float x : v) {
    if (check && (x < -1.0f || x >= 3.0f)) return 1;
    sum += x;
  }
  std::printf("mean %.3f\n", sum / v.size());
  return 0;
}
