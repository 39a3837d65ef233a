#include "rounded_weight_dp.hpp"

#include <algorithm>
#include <limits>

#include "knapsack_dp.hpp"

namespace permbb::knapsack {

std::vector<int> rounded_weight_solution(const ItemTable& items, std::int64_t capacity,
                                         std::int64_t columns) {
  const std::int64_t unit = std::max<std::int64_t>(1, capacity / std::max<std::int64_t>(1, columns));
  KnapsackInstance rounded;
  rounded.name = "rounded";
  rounded.capacity = capacity / unit;
  for (int i = 0; i < items.count(); ++i) {
    const std::int64_t w = items.weights()[i];
    rounded.weights.push_back(w / unit + (w % unit != 0 ? 1 : 0));
    rounded.profits.push_back(items.profits()[i]);
  }
  return solve_dp(rounded, std::numeric_limits<std::uint64_t>::max()).items;
}

}  // namespace permbb::knapsack
