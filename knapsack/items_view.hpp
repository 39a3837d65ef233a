#pragma once
#include <cstdint>

namespace permbb::knapsack {

// The items the branch-and-bound works on, as plain arrays (host or device memory): only the
// items that fit alone (w_i <= c), sorted by decreasing p_i / w_i (ItemTable builds them).
// min_weight_from[i] is the smallest weight among items i..count-1, with
// min_weight_from[count] = 2^63 - 1: the greedy lower bound stops once nothing left can fit.
struct ItemsView {
  int count = 0;
  std::int64_t capacity = 0;
  const std::int64_t* profit = nullptr;
  const std::int64_t* weight = nullptr;
  const std::int64_t* min_weight_from = nullptr;
};

}  // namespace permbb::knapsack
