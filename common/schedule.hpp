#pragma once
#include <vector>

#include "flowshop_types.hpp"

namespace permbb {

// A schedule and its makespan: jobs (0-based) in processing order. The one type every room
// passes schedules in (heuristics, incumbent, messages, checkpoints). The permutation is
// empty when the makespan is only a bound (an initial upper bound given as a number);
// kInfiniteTime means no schedule and no bound.
struct Schedule {
  std::vector<int> permutation;
  Time makespan = kInfiniteTime;

  friend bool operator==(const Schedule&, const Schedule&) = default;
};

}  // namespace permbb
