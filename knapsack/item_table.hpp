#pragma once
#include <cstdint>
#include <vector>

#include "items_view.hpp"
#include "node_dominance.hpp"
#include "knapsack_instance.hpp"

namespace permbb::knapsack {

// The items as the branch-and-bound sees them: those that fit alone (w_i <= c; the others are
// in no feasible solution), sorted by decreasing profit/weight ratio, the comparison exact
// (cross-multiplied in 128 bits) and ties kept in input order (a stable sort), so the order,
// and with it the whole search, is the same on every platform.
class ItemTable {
 public:
  explicit ItemTable(const KnapsackInstance& instance);

  int count() const { return static_cast<int>(profit_.size()); }
  std::int64_t capacity() const { return capacity_; }
  // 64-bit words of a node's decision record (at least 1).
  int words_per_node() const { return count() / 64 + 1; }
  // The input's (0-based) number of sorted item i.
  int original_index(int i) const { return original_[i]; }

  const std::vector<std::int64_t>& profits() const { return profit_; }
  const std::vector<std::int64_t>& weights() const { return weight_; }
  const std::vector<std::int64_t>& min_weight_from() const { return min_weight_from_; }

  // Views into this table's arrays (valid while the table lives).
  ItemsView view() const;
  PrefixSums prefix_sums() const { return {weight_before_.data(), profit_before_.data()}; }

 private:
  std::int64_t capacity_ = 0;
  std::vector<std::int64_t> profit_;
  std::vector<std::int64_t> weight_;
  std::vector<std::int64_t> min_weight_from_;
  std::vector<std::int64_t> weight_before_;  // prefix sums, count + 1 entries
  std::vector<std::int64_t> profit_before_;
  std::vector<int> original_;
};

}  // namespace permbb::knapsack
