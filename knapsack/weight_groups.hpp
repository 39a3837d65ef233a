#pragma once
#include <cstdint>
#include <limits>
#include <vector>

#include "knapsack_instance.hpp"

namespace permbb::knapsack {

// The items cut into groups of nearly equal weight, for the group search (group_search.hpp).
// Every item of a group weighs the group's base plus an extra weight of at most the group's
// span, and earns the base plus an extra profit (which may be negative): a solution that
// takes k items of a group pays k bases, which earn as much as they weigh, and the extras of
// the k items it takes. Jooken et al.'s instances are built this way (groups of weight about
// c / 2^(j+1) + c eps, extras of 1 to s: jooken_generator.cpp), but the cut holds for any
// instance; only its use is faster where the groups are few.

// No way (a count of items a table cell cannot take).
inline constexpr std::int64_t kNoProfit = std::numeric_limits<std::int64_t>::min() / 4;

struct WeightGroup {
  std::int64_t base = 0;
  std::int64_t span = 0;        // the largest extra weight
  std::vector<int> items;       // input indices
  std::vector<std::int64_t> extra_weight;  // w_i - base, in [0, span]
  std::vector<std::int64_t> extra_profit;  // p_i - base
  int most_taken = 0;           // the most items of the group a solution can take
  std::vector<std::int64_t> top_profit;    // [k]: the k largest extra profits, added
  std::vector<std::int64_t> least_weight;  // [k]: the k smallest extra weights, added
  std::vector<std::int64_t> top_excess;    // [k]: the k largest p_i - w_i, added

  // The most extra profit of exactly k items whose extra weights add up to at most `room`
  // (kNoProfit: none), 0 <= k <= most_taken.
  std::int64_t best_within(int k, std::int64_t room) const;
  std::int64_t row_length(int k) const { return k * span + 1; }

  std::vector<std::int64_t> table;     // the rows of best_within, k = 0..most_taken
  std::vector<std::int64_t> row_start;
};

// The light items (the lightest group, when its items weigh at most a span): their count
// does not matter to the base sum, so their table is the plain one over weights.
struct LightItems {
  std::vector<int> items;
  std::vector<std::int64_t> weight;
  std::vector<std::int64_t> profit;
  std::vector<std::int64_t> best;  // [W]: the most profit of light items weighing at most W
  std::int64_t positive_excess = 0;  // the p_i - w_i above 0, added

  std::int64_t most_weight() const { return static_cast<std::int64_t>(best.size()) - 1; }
  std::int64_t best_within(std::int64_t room) const;
};

struct WeightGroups {
  std::vector<WeightGroup> groups;  // heaviest base first
  LightItems light;
  std::int64_t cells = 0;           // table cells, all groups together
};

// The items that fit (weight <= capacity), sorted by weight and cut wherever the next weight
// passes the current group's lightest by more than `span`. Throws InputError when the tables
// would take more than max_cells cells (the items do not fall into few groups).
WeightGroups make_weight_groups(const KnapsackInstance& instance, std::int64_t span,
                                std::int64_t max_cells);

// The positions (into profit/weight) of a subset of exactly `count` items (count < 0: any
// number) whose weights add up to at most `room` and whose profit is the largest; its
// profit is `expected` (std::logic_error otherwise: the tables and this search disagree).
std::vector<int> best_subset_within(const std::vector<std::int64_t>& profit,
                                    const std::vector<std::int64_t>& weight, int count,
                                    std::int64_t room, std::int64_t expected);

}  // namespace permbb::knapsack
