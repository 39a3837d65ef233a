#pragma once
#include <cstdint>

namespace permbb {

// Processing times, completion times, lower bounds and makespans. Instances whose total
// processing time would not fit are refused when they are read, so no sum overflows.
using Time = std::int32_t;

// Limits accepted at run time; nothing is sized by them at compile time.
inline constexpr int kMaxJobs = 4000;
inline constexpr int kMaxMachines = 1000;
inline constexpr Time kMaxProcessingTime = 1000000;

// Sentinel for "no upper bound" (every schedule is an improvement).
inline constexpr Time kInfiniteTime = INT32_MAX;

}  // namespace permbb
