#include <cstdio>
#include "api.h"

int main() {
  const std::vector<float> v = random_scaled(1000, 2.0f, 1234ULL);
  double total = 0;
  for (float x : v) total += x;
  std::printf("random: n=%zu mean=%.3f\n", v.size(), total / v.size());
  const std::vector<int> ptr = coo_rows_to_csr({0, 0, 1, 3, 3, 3}, 4);
  std::printf("csr:");
  for (int p : ptr) std::printf(" %d", p);
  std::printf("\n");
#ifdef RS_WITH_CUB
  std::printf("sum: %.1f\n", device_sum({1.0f, 2.0f, 3.5f}));
#endif
  return 0;
}
