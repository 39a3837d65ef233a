#include "item_table.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "wide_arithmetic.hpp"

namespace permbb::knapsack {

ItemTable::ItemTable(const KnapsackInstance& instance) : capacity_(instance.capacity) {
  for (int i = 0; i < instance.items(); ++i) {
    if (instance.weights[i] <= capacity_) original_.push_back(i);
  }
  std::stable_sort(original_.begin(), original_.end(), [&instance](int a, int b) {
    return ratio_greater(instance.profits[a], instance.weights[a], instance.profits[b],
                         instance.weights[b]);
  });
  for (const int i : original_) {
    profit_.push_back(instance.profits[i]);
    weight_.push_back(instance.weights[i]);
  }
  min_weight_from_.assign(original_.size() + 1, std::numeric_limits<std::int64_t>::max());
  for (int i = count() - 1; i >= 0; --i) {
    min_weight_from_[i] = std::min(weight_[i], min_weight_from_[i + 1]);
  }
  weight_before_.assign(original_.size() + 1, 0);
  profit_before_.assign(original_.size() + 1, 0);
  std::partial_sum(weight_.begin(), weight_.end(), weight_before_.begin() + 1);
  std::partial_sum(profit_.begin(), profit_.end(), profit_before_.begin() + 1);
}

ItemsView ItemTable::view() const {
  return {count(), capacity_, profit_.data(), weight_.data(), min_weight_from_.data()};
}

}  // namespace permbb::knapsack
