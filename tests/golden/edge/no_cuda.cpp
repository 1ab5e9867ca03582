#include <vector>
int plain(const std::vector<int>& v) { return v.empty() ? 0 : v[0]; }
