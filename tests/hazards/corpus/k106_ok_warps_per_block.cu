constexpr int kWarpsPerBlock = 32;
