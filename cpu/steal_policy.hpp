#pragma once
#include <string>

namespace permbb {

// How an idle thread picks its work-stealing victim (docs/performance.md compares them):
//   ring     the next threads in a ring, the first with a long enough interval (2016 §3.3.1);
//   random   the same scan from a random starting thread;
//   largest  the thread with the largest remaining interval, by its last published size.
enum class StealPolicy { kRing, kRandom, kLargest };

std::string to_string(StealPolicy policy);
StealPolicy parse_steal_policy(const std::string& name);  // throws InputError

}  // namespace permbb
