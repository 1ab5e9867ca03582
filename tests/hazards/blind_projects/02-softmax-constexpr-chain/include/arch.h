#pragma once
// Hardware constants shared by host and device code.
namespace rt {
constexpr int kWarpSize = 32;
constexpr int kMaxThreadsPerBlock = 1024;
}  // namespace rt
